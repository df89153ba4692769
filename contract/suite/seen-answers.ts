import { createHash } from 'node:crypto';
import { describeRequest, type Exchange } from './client.ts';
import { at, field, toList } from './json-shape.ts';
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
function paramsKey(operation: string, params: Record<string, unknown>, drop: string[] = []) {
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
    const summary = summaryOf(e);
    return summary === undefined ? [] : this.compareSummary(summary);
  }

  /** `compare` for an answer already summed up (a repeat of an exchange seen before). */
  compareSummary(summary: SeenSummary): Comparison[] {
    const found: Comparison[] = [];
    const { key, entry: now } = summary;
    const before = this.#answers.get(key);
    if (before !== undefined) {
      const same = before.status === now.status && before.body === now.body;
      const differs = before.status !== now.status ? `status ${now.status}` : 'another answer';
      found.push({
        rule: before.method === now.method ? 'STABLE' : 'POST-EQ',
        holds: same,
        expected: `status ${before.status} and the answer given to ${before.request}`,
        got: same ? '' : differs,
      });
    }
    remember(this.#answers, key, now, this.#size);
    if (summary.twin !== undefined) found.push(...this.#twin(summary.twin));
    if (summary.threshold !== undefined) found.push(...this.#threshold(summary.threshold));
    return found;
  }

  /** Scoring with a score_threshold counts at most the total without one: it only drops items. */
  #threshold(now: ThresholdSummary): Comparison[] {
    const totals = { ...this.#totals.get(now.key) };
    totals[now.side] = { total: now.total, request: now.request };
    remember(this.#totals, now.key, totals, this.#size);
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
  #twin(now: TwinSummary): Comparison[] {
    const other = this.#twins.get(now.key);
    remember(this.#twins, now.key, now.twin, this.#size);
    if (other === undefined || other.full === now.twin.full) return [];
    const holds = other.projection === now.twin.projection;
    return [
      {
        rule: 'GRD-FULL',
        holds,
        expected: `the items (minimal fields), scores and errors answered to ${other.request}`,
        got: holds ? '' : `others with ${now.flag}=${now.twin.full}`,
      },
    ];
  }
}

type TwinSummary = { key: string; flag: string; twin: Twin };

type ThresholdSummary = { key: string; side: 'all' | 'kept'; total: number; request: string };

/** What the two-exchange rules keep of an answer: digests and totals, not its text. */
export type SeenSummary = {
  key: string;
  entry: Entry;
  twin: TwinSummary | undefined;
  threshold: ThresholdSummary | undefined;
};

/** The answer summed up for the two-exchange rules, or undefined for one they never compare. */
export function summaryOf(e: Seen): SeenSummary | undefined {
  if ([401, 403, 429].includes(e.status) || e.status >= 500) return undefined;
  const params = e.params ?? {};
  const entry: Entry = {
    method: e.method,
    request: describeRequest(e),
    status: e.status,
    // The answer's text, not its value re-serialised: hashing 170 KB of text is ten times faster.
    body: createHash('sha1').update(e.text).digest('base64'),
  };
  const grading =
    e.operation.endsWith('/grading') && e.status === 200 && typeof at(e.body, 'data') === 'object';
  const scoring =
    e.operation.endsWith('/scoring') && e.status === 200 && typeof at(e.body, 'meta') === 'object';
  return {
    key: paramsKey(e.operation, params),
    entry,
    twin: grading ? twinOf(e, params, entry.request) : undefined,
    threshold: scoring ? thresholdOf(e, params, entry.request) : undefined,
  };
}

function thresholdOf(
  e: Seen,
  params: Record<string, unknown>,
  request: string,
): ThresholdSummary | undefined {
  const total = field(field(e.body, 'meta'), 'total');
  if (typeof total !== 'number') return undefined;
  return {
    key: paramsKey(e.operation, params, [...NOT_FILTERS, 'score_threshold']),
    side: params.score_threshold === undefined ? 'all' : 'kept',
    total,
    request,
  };
}

function twinOf(e: Seen, params: Record<string, unknown>, request: string): TwinSummary {
  const list = e.operation.startsWith('/profiles') ? 'profiles' : 'jobs';
  const flag = list === 'profiles' ? 'return_profile' : 'return_job';
  const full = /^(true|1)$/i.test(String(params[flag] ?? ''));
  const data = field(e.body, 'data');
  const items = toList(field(data, list));
  const fields = MINIMAL_FIELDS[list];
  const projection = digest({
    items: items.map((item) =>
      item === null ? null : Object.fromEntries(fields.map((f) => [f, field(item, f)])),
    ),
    scores: field(data, 'scores'),
    errors: field(data, 'errors'),
  });
  return { key: paramsKey(e.operation, params, [flag]), flag, twin: { full, request, projection } };
}

/** Keeps `value` under `key` as the newest of at most `size` entries. */
export function remember<T>(map: Map<string, T>, key: string, value: T, size: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > size) map.delete(map.keys().next().value as string);
}
