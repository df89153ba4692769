// `hrmock/browser`: the mock with no server, for a Service Worker, MSW, or any `fetch` seam.
export type { SteeringControls, WaitOptions } from '../http/admin/controls.ts';
export type { JournalEntry, JournalFilter, RequestState } from '../http/admin/journal.ts';
export type { Fault, Scenario, ScenarioInput, ScenarioResponse } from '../http/admin/scenarios.ts';
export type { ApiBase } from '../http/api-base.ts';
export {
  type MockControls,
  type MockControlsOptions,
  mockControls,
} from './mock-controls.ts';
export { createMockFetch, type MockFetch, type MockFetchOptions } from './mock-fetch.ts';
export { type MswHttp, type MswResolver, mswHandlers, mswResolver } from './msw.ts';
export {
  installServiceWorkerMock,
  isMockedUrl,
  type MockFetchEvent,
  type ServiceWorkerMockOptions,
  type ServiceWorkerScope,
} from './service-worker.ts';
