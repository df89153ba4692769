import type { Meta } from '../../../src/store/types.ts';
import { type Kind, NAMES, otherKind } from './names.ts';
import { type ObjectRef, type Read, readGrading, readScoring, readSearch } from './read-params.ts';
import type { Raw } from './read-values.ts';
import { matchScore, scorePair } from './scan-match.ts';
import { filterDocs, pageOf, sortDocs } from './scan-search.ts';
import { type Collection, type Doc, refId, type Store } from './scan-store.ts';

/** What a successful operation answers: the envelope's message, data and, for lists, meta. */
export type Answer = { message: string; data: Record<string, unknown>; meta?: Meta };

/** The envelope the HTTP layer used to send for an answer. */
export function envelope(answer: Answer) {
  const { message, data, meta } = answer;
  return meta === undefined ? { code: 200, message, data } : { code: 200, message, data, meta };
}

const TITLES: Record<Kind, string> = { profile: 'Profiles', job: 'Jobs' };

export function scanSearch(store: Store, kind: Kind, raw: Raw): Read<Answer> {
  const parsed = readSearch(kind, raw);
  if (!parsed.ok) return parsed;
  const query = parsed.value;
  const found = filterDocs(store, kind, query);
  if (!found.ok) return found;
  const page = pageOf(sortDocs(found.value, query), query.page, query.limit);
  return answer({
    message: `${TITLES[kind]} searching results.`,
    data: { [NAMES[kind].plural]: page.items.map((d) => d.full) },
    meta: page.meta,
  });
}

export function scanScoring(store: Store, kind: Kind, raw: Raw): Read<Answer> {
  const parsed = readScoring(kind, raw);
  if (!parsed.ok) return parsed;
  const query = parsed.value;
  const against = findObject(store[otherKind(kind)], query.against);
  if (!against.ok) return against;
  const found = filterDocs(store, kind, query, against.value);
  if (!found.ok) return found;
  let docs = found.value;
  let scores: Map<Doc, number> | undefined;
  if (query.useAlgorithm) {
    const other = against.value;
    const score = (doc: Doc) =>
      kind === 'profile'
        ? matchScore(doc, other, query.algorithmKey)
        : matchScore(other, doc, query.algorithmKey);
    scores = new Map(docs.map((doc) => [doc, score(doc)]));
    const threshold = query.threshold;
    if (threshold !== undefined) docs = docs.filter((doc) => (scores?.get(doc) ?? 0) >= threshold);
  }
  const page = pageOf(sortDocs(docs, query, scores), query.page, query.limit);
  const predictions =
    scores === undefined ? [] : page.items.map((doc) => scorePair(scores?.get(doc) ?? 0));
  return answer({
    message: `${TITLES[kind]} scoring results.`,
    data: { [NAMES[kind].plural]: page.items.map((d) => d.full), predictions },
    meta: page.meta,
  });
}

export function scanGrading(store: Store, kind: Kind, raw: Raw): Read<Answer> {
  const parsed = readGrading(kind, raw);
  if (!parsed.ok) return parsed;
  const query = parsed.value;
  const against = findObject(store[otherKind(kind)], query.against);
  if (!against.ok) return against;
  const collection = store[kind];
  let refs: ObjectRef[];
  if (query.single !== undefined) {
    // Single mode names one object: if it is not there, the request itself is wrong.
    const single = findObject(collection, query.single);
    if (!single.ok) return single;
    refs = [query.single];
  } else {
    refs = query.batch ?? [];
  }
  const items: unknown[] = [];
  const scores: (ReturnType<typeof scorePair> | null)[] = [];
  const errors: (string | null)[] = [];
  const algorithm = `grading:${query.algorithmKey}`;
  for (const ref of refs) {
    const doc = lookup(collection, ref);
    if (doc === undefined) {
      items.push(null);
      scores.push(null);
      errors.push(missingItem(collection, ref));
      continue;
    }
    items.push(query.returnFull ? doc.full : doc.minimal);
    if (!doc.gradable) {
      scores.push(null);
      errors.push(
        `${NAMES[kind].kind === 'profile' ? 'Profile' : 'Job'} ${doc.key} has nothing to grade: it holds contact details only (no experience, education, skill or summary).`,
      );
      continue;
    }
    const score =
      kind === 'profile'
        ? matchScore(doc, against.value, algorithm)
        : matchScore(against.value, doc, algorithm);
    scores.push(scorePair(score));
    errors.push(null);
  }
  const data: Record<string, unknown> = { [NAMES[kind].plural]: items, scores, errors };
  if (query.single !== undefined) data.score = scores[0]?.[1] ?? null;
  return answer({ message: 'Grading finished.', data });
}

function lookup(collection: Collection, ref: ObjectRef): Doc | undefined {
  if (ref.key !== undefined) return collection.byKey.get(refId(ref.containerKey, ref.key));
  if (ref.reference !== undefined)
    return collection.byReference.get(refId(ref.containerKey, ref.reference));
  return undefined;
}

function missingItem(collection: Collection, ref: ObjectRef): string {
  const names = NAMES[collection.kind];
  if (!collection.containers.has(ref.containerKey)) {
    return `Unable to find object: ${names.container} ${ref.containerKey}.`;
  }
  return `Unable to find object: ${collection.kind} ${ref.key ?? ref.reference} in ${names.container} ${ref.containerKey}.`;
}

/** The one object an operation is measured against; naming one that does not exist is a 400. */
function findObject(collection: Collection, ref: ObjectRef): Read<Doc> {
  const names = NAMES[collection.kind];
  if (!collection.containers.has(ref.containerKey)) return refused(names.containerKey);
  const doc = lookup(collection, ref);
  if (doc !== undefined) return { ok: true, value: doc };
  return refused(ref.key !== undefined ? names.key : names.reference);
}

function refused(param: string): Read<never> {
  return { ok: false, status: 400, params: [param] };
}

function answer(value: Answer): Read<Answer> {
  return { ok: true, value };
}
