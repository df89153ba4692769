import type { Break } from '../../contract/suite/breaking-changes.ts';
import { loadContract, type OpenApiDoc } from '../../contract/suite/openapi.ts';

export type Doc = Record<string, any>;

const current = loadContract();

/** The current contract with one change: a fresh copy each time. */
export function changed(change: (d: Doc) => void): OpenApiDoc {
  const copy = structuredClone(current) as Doc;
  change(copy);
  return copy as OpenApiDoc;
}

/** Breaks as one line each: where, then what. */
export const shown = (breaks: Break[]) => breaks.map((b) => `${b.where}: ${b.what}`);

export { current };
