import type { JsonWriter } from '../engine/json-writer.ts';
import { mapIds } from '../engine/map-ids.ts';
import { type Kind, NAMES, otherKind } from '../store/kinds.ts';
import type { Collection, Doc, Store } from '../store/store.ts';
import type { ScorePair } from '../store/types.ts';
import { type Answer, answerOf, listOf, valueJson } from './answer-json.ts';
import { withStoreKeys } from './example-keys.ts';
import { extraTest } from './extra-filters.ts';
import { type Found, findDocs } from './find-docs.ts';
import { scorePair } from './match.ts';
import type { RawParams } from './params.ts';
import { type ObjectRef, parseGrading, parseScoring, parseSearch } from './requests.ts';
import { fail, ok, type ParamError, type Result } from './result.ts';
import { scoresAgainst } from './scores-against.ts';
import { metaOf, sortedPage } from './search.ts';

export type { Answer } from './answer-json.ts';

/** One of the operations, as the HTTP layer calls it. */
export type Operation = (store: Store, kind: Kind, raw: RawParams) => Result<Answer>;

const TITLES: Record<Kind, string> = { profile: 'Profiles', job: 'Jobs' };

export function searchOperation(store: Store, kind: Kind, raw: RawParams): Result<Answer> {
  const parsed = withStoreKeys(parseSearch(kind, raw), store);
  if (!parsed.ok) return parsed;
  const query = parsed.value;
  const collection = store[kind];
  const found = findDocs(collection, query, extraTest(store, kind, query.filters));
  if (!found.ok) return found;
  const page = sortedPage(collection, found.value, query);
  return ok(
    answerOf(
      `${TITLES[kind]} searching results.`,
      [[NAMES[kind].plural, itemsJson(collection, page)]],
      metaOf(found.value.ids.length, query.page, query.limit, page.length),
    ),
  );
}

export function scoringOperation(store: Store, kind: Kind, raw: RawParams): Result<Answer> {
  const parsed = withStoreKeys(parseScoring(kind, raw), store);
  if (!parsed.ok) return parsed;
  const query = parsed.value;
  const against = findObject(store[otherKind(kind)], query.against);
  if (!against.ok) return against;
  const collection = store[kind];
  const { stage } = query.filters;
  if (stage !== undefined)
    stage.against = { containerKey: against.value.containerKey, key: against.value.key };
  const found = findDocs(collection, query, extraTest(store, kind, query.filters));
  if (!found.ok) return found;
  let docs = found.value;
  let scores: Float64Array | undefined;
  let scoreOf: ((index: number) => number) | undefined;
  if (query.useAlgorithm) {
    scoreOf = scoresAgainst(store, kind, against.value, query.algorithmKey);
    // Every found doc needs its score only to be ranked or kept by it; else only the page does.
    if (query.threshold !== undefined || query.sortBy === 'scoring') {
      scores = mapIds(docs.ids, scoreOf);
      if (query.threshold !== undefined) {
        const kept = above(docs, scores, query.threshold);
        docs = kept.found;
        scores = kept.scores;
      }
    }
  }
  const page = sortedPage(collection, docs, query, scores);
  const predictions = scoreOf === undefined ? [] : page.map((i) => scorePair(scoreOf(i)));
  return ok(
    answerOf(
      `${TITLES[kind]} scoring results.`,
      [
        [NAMES[kind].plural, itemsJson(collection, page)],
        ['predictions', valueJson(predictions)],
      ],
      metaOf(docs.ids.length, query.page, query.limit, page.length),
    ),
  );
}

export function gradingOperation(store: Store, kind: Kind, raw: RawParams): Result<Answer> {
  const parsed = withStoreKeys(parseGrading(kind, raw), store);
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
  const items: (Doc | null)[] = [];
  const scores: (ScorePair | null)[] = [];
  const errors: (string | null)[] = [];
  const score = scoresAgainst(store, kind, against.value, `grading:${query.algorithmKey}`);
  for (const ref of refs) {
    const doc = lookup(collection, ref);
    if (doc === undefined) {
      items.push(null);
      scores.push(null);
      errors.push(missingItem(collection, ref));
      continue;
    }
    items.push(doc);
    if (!doc.gradable) {
      scores.push(null);
      errors.push(
        `${NAMES[kind].kind === 'profile' ? 'Profile' : 'Job'} ${doc.key} has nothing to grade: it holds contact details only (no experience, education, skill or summary).`,
      );
      continue;
    }
    scores.push(scorePair(score(doc.index)));
    errors.push(null);
  }
  const fields: Parameters<typeof answerOf>[1] = [
    [
      NAMES[kind].plural,
      listOf(items, (out, doc) => {
        if (doc === null) out.text('null');
        else if (query.returnFull) out.object(collection, doc.index);
        else out.bytes(minimalJson(doc));
      }),
    ],
    ['scores', valueJson(scores)],
    ['errors', valueJson(errors)],
  ];
  // Single mode answered `data.score` before batches existed, and its clients still read it.
  if (query.single !== undefined) fields.push(['score', valueJson(scores[0]?.[1] ?? null)]);
  return ok(answerOf('Grading finished.', fields));
}

const minimalTexts = new WeakMap<Doc, Uint8Array>();
const encoder = new TextEncoder();

/** A doc's minimal object as UTF-8 JSON, made once: grading batches name the same docs again. */
function minimalJson(doc: Doc): Uint8Array {
  let text = minimalTexts.get(doc);
  if (text === undefined) {
    text = encoder.encode(JSON.stringify(doc.minimal));
    minimalTexts.set(doc, text);
  }
  return text;
}

/** The full objects, from the collection's cache of their JSON. */
function itemsJson(collection: Collection, page: number[]): (out: JsonWriter) => void {
  return listOf(page, (out, index) => out.object(collection, index));
}

/** The found docs scoring at least `threshold`, with their scores and nearness. */
function above(docs: Found, scores: Float64Array, threshold: number) {
  const kept = (_: number, position: number) => (scores[position] as number) >= threshold;
  return {
    found: { ids: docs.ids.filter(kept), nearness: docs.nearness.filter(kept) },
    scores: scores.filter((score) => score >= threshold),
  };
}

function lookup(collection: Collection, ref: ObjectRef): Doc | undefined {
  if (ref.key !== undefined) return collection.byKey.find(ref.containerKey, ref.key);
  if (ref.reference !== undefined)
    return collection.byReference.find(ref.containerKey, ref.reference);
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
function findObject(collection: Collection, ref: ObjectRef): Result<Doc> {
  const names = NAMES[collection.kind];
  if (!collection.containers.has(ref.containerKey)) {
    return fail([
      notFound(
        names.containerKey,
        `${names.container} ${ref.containerKey}`,
        `${names.container}s`,
        [...collection.containers.keys()],
      ),
    ]);
  }
  const doc = lookup(collection, ref);
  if (doc !== undefined) return ok(doc);
  const param = ref.key !== undefined ? names.key : names.reference;
  const what = `${collection.kind} ${ref.key ?? ref.reference} in ${names.container} ${ref.containerKey}`;
  return fail([
    {
      param,
      message: `Unable to find object: ${what}. Check the ${param}, or list ${names.plural} with /${names.plural}/searching`,
    },
  ]);
}

function notFound(param: string, what: string, plural: string, known: string[]): ParamError {
  return { param, message: `Unable to find object: ${what}. Known ${plural}: ${known.join(', ')}` };
}
