// The package's entry: the mock (`startMock`, `createApp`, `startServer`) and the contract's types.
// The contract suite is `hrmock/check` (src/check.ts), the proxy `hrmock/proxy` (src/proxy.ts):
// importing `hrmock` loads neither.
import type { components, operations, paths } from './generated/contract.ts';

type Schemas = components['schemas'];

/** A full profile, as searching, scoring and grading with return_profile=true return it. */
export type Profile = Schemas['Profile'];
/** A full job, as searching, scoring and grading with return_job=true return it. */
export type Job = Schemas['Job'];
/** What grading returns for a profile unless return_profile is true. */
export type ProfileMinimal = Schemas['ProfileMinimal'];
/** What grading returns for a job unless return_job is true. */
export type JobMinimal = Schemas['JobMinimal'];
export type Meta = Schemas['Meta'];
export type ErrorBody = Schemas['Error'];
export type ScorePair = Schemas['ScorePair'];
export type ProfilesGradingResponse = Schemas['ProfilesGradingResponse'];
export type JobsGradingResponse = Schemas['JobsGradingResponse'];
export type ProfilesSearchingResponse = Schemas['ProfilesSearchingResponse'];
export type JobsSearchingResponse = Schemas['JobsSearchingResponse'];
export type ProfilesScoringResponse = Schemas['ProfilesScoringResponse'];
export type JobsScoringResponse = Schemas['JobsScoringResponse'];

export { buildFixtures } from '../mocks/build-fixtures.ts';
export { lazyFixtures } from '../mocks/lazy-fixtures.ts';
export { type RunningMock, type StartMockOptions, startMock } from './api/start-mock.ts';
export type { SteeringControls, WaitOptions } from './http/admin/controls.ts';
export type { JournalEntry, JournalFilter, RequestState } from './http/admin/journal.ts';
export type { Fault, Scenario, ScenarioInput, ScenarioResponse } from './http/admin/scenarios.ts';
export { type AppFetch, type AppOptions, createApp, type HrmockApp } from './http/app.ts';
export type { AppState } from './http/app-state.ts';
export { startServer } from './node/server.ts';
export type { components, operations, paths };
