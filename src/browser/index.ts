// `hrmock/browser`: the mock with no server, for a Service Worker, MSW, or any `fetch` seam.
export { createMockFetch, type MockFetch, type MockFetchOptions } from './mock-fetch.ts';
export {
  installServiceWorkerMock,
  isMockedUrl,
  type MockFetchEvent,
  type ServiceWorkerMockOptions,
  type ServiceWorkerScope,
} from './service-worker.ts';
