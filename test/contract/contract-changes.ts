import type { Break } from '../../contract/suite/breaking-changes.ts';
import type { JsonObject } from '../../contract/suite/json-shape.ts';
import { loadContract, type OpenApiDoc } from '../../contract/suite/openapi.ts';

/** A copy of the contract a test changes: its parts reached with `objAt` and `listAt`. */
export type Doc = JsonObject;

const current = loadContract();

/** The current contract with one change: a fresh copy each time. */
export function changed(change: (d: Doc) => void): OpenApiDoc {
  const copy = structuredClone(current);
  change(copy);
  return copy;
}

/** Breaks as one line each: where, then what. */
export const shown = (breaks: Break[]) => breaks.map((b) => `${b.where}: ${b.what}`);

export { current };
