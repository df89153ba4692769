import { type Kind, NAMES, otherKind } from './names.ts';
import { type ScanSearch, searchOf } from './read-search.ts';
import { decoded, KEY, type Raw, Reading } from './read-values.ts';

export type { Place, ScanFilters, ScanSearch, SortBy, Stage } from './read-search.ts';

// The reference's own reading of the parameters of searching, scoring and grading, from the
// contract (contract/openapi.yaml) and /work/shared/DESIGN.md, never from src/hr.

/** One object named by its container and its key or reference. */
export type ObjectRef = { containerKey: string; key?: string; reference?: string };

export type ScanScoring = ScanSearch & {
  algorithmKey: string;
  against: ObjectRef;
  useAlgorithm: boolean;
  threshold?: number;
};

export type ScanGrading = {
  algorithmKey: string;
  against: ObjectRef;
  batch?: ObjectRef[];
  single?: ObjectRef;
  returnFull: boolean;
};

/** Read, or refused with a 400 naming each wrong parameter. */
export type Read<T> = { ok: true; value: T } | { ok: false; status: 400; params: string[] };

function done<T>(read: Reading, value: T): Read<T> {
  return read.wrong.length === 0
    ? { ok: true, value }
    : { ok: false, status: 400, params: [...new Set(read.wrong)].sort() };
}

export function readSearch(kind: Kind, raw: Raw): Read<ScanSearch> {
  const read = new Reading(raw);
  const search = searchOf(read, kind);
  // Searching computes no score: `scoring` ranks by keyword relevance.
  if (search.sortBy === 'scoring') search.sortBy = 'searching';
  return done(read, search);
}

export function readScoring(kind: Kind, raw: Raw): Read<ScanScoring> {
  const read = new Reading(raw);
  // `agent_key` / `use_agent` are the older names: used only when the new one is absent.
  const algorithm = read.sent('algorithm_key') ? 'algorithm_key' : 'agent_key';
  const algorithmKey = read.text(algorithm) ?? 'default';
  const against = objectRef(read, otherKind(kind));
  const search = searchOf(read, kind);
  const useName =
    read.sent('use_algorithm') || !read.sent('use_agent') ? 'use_algorithm' : 'use_agent';
  const useAlgorithm = read.flag(useName, true);
  const threshold = read.number('score_threshold', { min: 0, max: 1 });
  // A score order or a score threshold needs scores.
  if (!useAlgorithm && search.sortBy === 'scoring') read.bad('sort_by');
  if (!useAlgorithm && threshold !== undefined) read.bad('score_threshold');
  const query: ScanScoring = { ...search, algorithmKey, against, useAlgorithm };
  if (threshold !== undefined) query.threshold = threshold;
  return done(read, query);
}

export function readGrading(kind: Kind, raw: Raw): Read<ScanGrading> {
  const read = new Reading(raw);
  const names = NAMES[kind];
  const algorithmKey = read.text('algorithm_key') ?? read.bad('algorithm_key') ?? '';
  const against = objectRef(read, otherKind(kind));
  const returnFull = read.flag(names.returnFull, false);
  const query: ScanGrading = { algorithmKey, against, returnFull };
  const single = [names.containerKey, names.key, names.reference].some((n) => read.sent(n));
  // Exactly one mode: a batch of ids, or one object (deprecated).
  if (read.sent(names.ids) === single) read.bad(names.ids);
  else if (single) query.single = objectRef(read, kind);
  else query.batch = idList(read, kind);
  return done(read, query);
}

/**
 * The batch: `{container key, key}` objects (or their JSON), 1 to 100 of them, as a JSON array,
 * its text, or one per repeated name.
 */
function idList(read: Reading, kind: Kind): ObjectRef[] | undefined {
  const names = NAMES[kind];
  const value = read.raw.get(names.ids);
  const list = Array.isArray(value) ? value : decoded(value);
  const refs = Array.isArray(list) ? list.map((entry) => idOf(decoded(entry), kind)) : [];
  const good = refs.length >= 1 && refs.length <= 100;
  return good && refs.every((r) => r !== undefined) ? (refs as ObjectRef[]) : read.bad(names.ids);
}

function idOf(entry: unknown, kind: Kind): ObjectRef | undefined {
  const names = NAMES[kind];
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { [names.containerKey]: containerKey, [names.key]: key } = entry as Record<string, unknown>;
  const keys = typeof containerKey === 'string' && typeof key === 'string';
  return keys && KEY.test(containerKey) && KEY.test(key) ? { containerKey, key } : undefined;
}

/** The container key (required) and the key or the reference (one of the two required). */
function objectRef(read: Reading, kind: Kind): ObjectRef {
  const names = NAMES[kind];
  const containerKey = read.key(names.containerKey) ?? read.bad(names.containerKey) ?? '';
  if (!read.sent(names.key) && !read.sent(names.reference)) read.bad(names.key);
  const key = read.key(names.key);
  const reference = read.text(names.reference);
  // With both, the key names the object.
  return key !== undefined ? { containerKey, key } : { containerKey, reference: reference ?? '' };
}
