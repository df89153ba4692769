/**
 * A second implementation of contract/openapi.yaml, written from the contract alone (no code of
 * hrmock's mock or suite), so the tests can show `hrmock check` judging a server it has never
 * seen, clean or with one defect switched on.
 */
export { DEFECTS, type DefectName } from './defects.ts';
export { type IndependentServer, startIndependentServer } from './server.ts';
export type { Target } from './types.ts';
