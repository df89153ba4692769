// The `hrmock/check` entry: the contract rules as a function, for a team's own test runner.

export type { Coverage, OperationCoverage } from '../contract/suite/coverage.ts';
export type { Evidence, Outcome } from '../contract/suite/rule.ts';
export type { Report, RuleResult, Target } from './api/run-check.ts';
export { type RunCheckOptions, runCheck } from './api/run-check.ts';
