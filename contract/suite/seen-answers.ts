import { createHash } from 'node:crypto';
import { describeRequest, type Exchange } from './client.ts';
import { MINIMAL_FIELDS } from './operations.ts';

/** What a live exchange must give the two-exchange rules. */
type Seen = Exchange & { operation: string };

type Entry = { method: string; request: string; status: number; body: string };
type Twin = { full: boolean; request: string; projection: string };
/** A scoring total seen with and without a score_threshold, for the same filters. */
type Totals = { all?: Counted; kept?: Counted };
type Counted = { total: number; request: string };

/** Parameters that leave a total as it is: which page, how many on it, in what order. */
const NOT_FILTERS = ['page', 'limit', 'sort_by', 'order_by'];

export type Comparison = { rule: string; holds: boolean; expected: string; got: string };

const digest = (value: unknown) =>
  createHash('sha1')
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('base64');

/** The parameters as one text, names sorted, `drop` left out: equal texts ask the same thing. */
export function paramsKey(operation: string, params: Record<string, unknown>, drop: string[] = []) {
  const names = Object.keys(params)
    .filter((name) => !drop.includes(name) && params[name] !== undefined)
    .sort();
  return `${operation}?${names.map((name) => `${name}=${JSON.stringify(params[name])}`).join('&')}`;
}

/**
 * The answers already seen, as digests, per distinct request (at most `size`, the oldest
 * forgotten first): a later exchange with the same parameters is compared with them.
 */
export class Remembered {
  readonly #size: number;
  readonly #answers = new Map<string, Entry>();
  readonly #twins = new Map<string, Twin>();
  readonly #totals = new Map<string, Totals>();

  constructor(size: number) {
    this.#size = size;
  }

  /**
   * The comparisons this answer allows with earlier ones; remembers it for later ones. Answers
   * that depend on credentials, rate or the moment (401, 403, 429, 5xx) are neither.
   */
  compare(e: Seen): Comparison[] {
    if ([401, 403, 429].includes(e.status) || e.status >= 500) return [];
    const found: Comparison[] = [];
    const params = e.params ?? {};
    const key = paramsKey(e.operation, params);
    const now: Entry = {
      method: e.method,
      request: describeRequest(e),
      status: e.status,
      // The answer's text, not its value re-serialised: hashing 170 KB of text is ten times faster.
      body: createHash('sha1').update(e.text).digest('base64'),
    };
    const before = this.#answers.get(key);
    if (before !== undefined) {
      const same = before.status === now.status && before.body === now.body;
      const differs = before.status !== now.status ? `status ${now.status}` : 'another answer';
      found.push({
        rule: before.method === e.method ? 'STABLE' : 'POST-EQ',
        holds: same,
        expected: `status ${before.status} and the answer given to ${before.request}`,
        got: same ? '' : differs,
      });
    }
    remember(this.#answers, key, now, this.#size);
    if (e.operation.endsWith('/grading') && e.status === 200 && typeof e.body?.data === 'object')
      found.push(...this.#twin(e, params));
    if (e.operation.endsWith('/scoring') && e.status === 200 && typeof e.body?.meta === 'object')
      found.push(...this.#threshold(e, params));
    return found;
  }

  /** Scoring with a score_threshold counts at most the total without one: it only drops items. */
  #threshold(e: Seen, params: Record<string, unknown>): Comparison[] {
    const total = e.body.meta.total;
    if (typeof total !== 'number') return [];
    const key = paramsKey(e.operation, params, [...NOT_FILTERS, 'score_threshold']);
    const totals = { ...this.#totals.get(key) };
    const side = params.score_threshold === undefined ? 'all' : 'kept';
    totals[side] = { total, request: describeRequest(e) };
    remember(this.#totals, key, totals, this.#size);
    const { all, kept } = totals;
    if (all === undefined || kept === undefined) return [];
    const holds = kept.total <= all.total;
    return [
      {
        rule: 'PRED',
        holds,
        expected: `a total <= ${all.total}, answered to ${all.request} (a threshold only drops items)`,
        got: holds ? '' : `${kept.total} with score_threshold, answered to ${kept.request}`,
      },
    ];
  }

  /** Grading with and without the full flag: same items (minimal fields), scores and errors. */
  #twin(e: Seen, params: Record<string, unknown>): Comparison[] {
    const list = e.operation.startsWith('/profiles') ? 'profiles' : 'jobs';
    const flag = list === 'profiles' ? 'return_profile' : 'return_job';
    const full = /^(true|1)$/i.test(String(params[flag] ?? ''));
    const items: any[] = e.body.data[list] ?? [];
    const fields = MINIMAL_FIELDS[list];
    const projection = digest({
      items: items.map((item) =>
        item === null ? null : Object.fromEntries(fields.map((f) => [f, item[f]])),
      ),
      scores: e.body.data.scores,
      errors: e.body.data.errors,
    });
    const key = paramsKey(e.operation, params, [flag]);
    const other = this.#twins.get(key);
    remember(this.#twins, key, { full, request: describeRequest(e), projection }, this.#size);
    if (other === undefined || other.full === full) return [];
    const holds = other.projection === projection;
    return [
      {
        rule: 'GRD-FULL',
        holds,
        expected: `the items (minimal fields), scores and errors answered to ${other.request}`,
        got: holds ? '' : `others with ${flag}=${full}`,
      },
    ];
  }
}

/** Keeps `value` under `key` as the newest of at most `size` entries. */
export function remember<T>(map: Map<string, T>, key: string, value: T, size: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > size) map.delete(map.keys().next().value as string);
}
