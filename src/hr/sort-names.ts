import { PARAMETER_DEFAULTS } from '../generated/defaults.ts';
import type { ParamReader } from './params.ts';
import type { SortBy } from './queries.ts';

/**
 * Older names of the orders that clients still send: the JS SDK documents `date` and
 * `date_reception` (and `date_creation`, `score_semantic`, `score_predictive`), the names of the
 * API before `created_at`, `searching` and `scoring`. Each one orders as the name it maps to.
 */
const FORMER_NAMES = {
  date: 'created_at',
  date_reception: 'created_at',
  date_creation: 'created_at',
  score_semantic: 'searching',
  score_predictive: 'scoring',
} as const satisfies Record<string, SortBy>;

/**
 * `sort_by`, among `sorts` or a former name. Searching has no scores, so `scoring` there (the
 * Python SDK allows it on every call) ranks as `searching`: by relevance to the keywords.
 */
export function readSortBy(read: ParamReader, sorts: readonly SortBy[]): SortBy {
  const scored = sorts.includes('scoring');
  let names = ACCEPTED.get(sorts);
  if (names === undefined) {
    names = [...sorts, ...(scored ? [] : ['scoring' as const]), ...Object.keys(FORMER_NAMES)];
    ACCEPTED.set(sorts, names);
  }
  const sent = read.oneOf('sort_by', names as SortBy[], PARAMETER_DEFAULTS.sort_by) as string;
  const sortBy: SortBy = (FORMER_NAMES as Record<string, SortBy>)[sent] ?? (sent as SortBy);
  return sortBy === 'scoring' && !scored ? 'searching' : sortBy;
}

/** Per list of orders, every name `sort_by` accepts with it: made once, not per request. */
const ACCEPTED = new WeakMap<readonly SortBy[], readonly string[]>();
