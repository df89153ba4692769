import { BoundedCache } from '../engine/bounded-cache.ts';
import { GeoGrid } from '../engine/geo-grid.ts';
import { JsonCache } from '../engine/json-cache.ts';
import { type Postings, PostingsBuilder } from '../engine/postings.ts';
import { RefIndex } from '../engine/ref-index.ts';
import { type SortOrders, sortOrders } from '../engine/sort-orders.ts';
import { type TextIndex, TextIndexBuilder } from '../engine/text-index.ts';
import { type Columns, ColumnsBuilder } from './columns.ts';
import { type DocFeatures, jobFeatures, profileFeatures } from './doc-features.ts';
import { type Extras, ExtrasBuilder } from './extras.ts';
import type { Kind } from './kinds.ts';
import type {
  Container,
  Job,
  JobMinimal,
  ObjectList,
  Profile,
  ProfileMinimal,
  StoreData,
} from './types.ts';
import { createVocabulary, type Vocabulary } from './vocabulary.ts';

/** What identifies one profile or job, and what grading shows of it when not asked for all. */
export type Doc = {
  kind: Kind;
  index: number;
  key: string;
  containerKey: string;
  reference: string | null;
  /** Grading needs something beyond contact details. */
  gradable: boolean;
  /** The `family` tag's value, if any. */
  family: string | null;
  minimal: ProfileMinimal | JobMinimal;
};

export type Collection = {
  kind: Kind;
  containers: Map<string, Container>;
  docs: Doc[];
  byKey: RefIndex<Doc>;
  byReference: RefIndex<Doc>;
  vocabulary: Vocabulary;
  columns: Columns;
  postings: Postings;
  text: TextIndex;
  /** What only the SDKs' older filters and orders read. */
  extras: Extras;
  geo: GeoGrid;
  orders: SortOrders;
  /** Scores against one object of the other kind, NaN until computed, by `target|algorithm`. */
  scores: BoundedCache<string, Float64Array>;
  /** The full object of doc `index`, read again from the store's list. */
  full(index: number): Profile | Job;
  /**
   * `JSON.stringify` of the full object as UTF-8, from a bounded cache: valid until the next
   * call, so copy it before asking for another.
   */
  json(index: number): Uint8Array;
};

export type Store = { profile: Collection; job: Collection };

/** Room for the JSON of served objects, per collection: ~12,000 full profiles. */
const JSON_CACHE_BYTES = 64 * 1024 * 1024;
const SCORE_CACHE_ENTRIES = 16;

/**
 * Reads each profile and job once and keeps what the operations need of it; the objects themselves
 * stay in `data`'s lists, which may build them on demand and let them go.
 */
export function createStore(data: StoreData): Store {
  const steps = storeSteps(data);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Objects read between two steps of `storeSteps`. */
const STEP_OBJECTS = 500;

/**
 * `createStore` in steps of a few milliseconds: a caller that must stay responsive (a server
 * reloading its data) may run other work at each `yield`, and drop the store halfway.
 */
export function* storeSteps(data: StoreData): Generator<void, Store, void> {
  const vocabulary = createVocabulary();
  const profile = yield* collect(
    'profile',
    data.sources,
    data.profiles,
    profileFeatures,
    vocabulary,
  );
  const job = yield* collect('job', data.boards, data.jobs, jobFeatures, vocabulary);
  return { profile, job };
}

/** `containerKey/key`: keys are unique per container, as the API names objects. */
export function refId(containerKey: string, keyOrReference: string): string {
  return `${containerKey}/${keyOrReference}`;
}

function* collect<T extends Profile | Job>(
  kind: Kind,
  containers: Container[],
  list: ObjectList<T>,
  extract: (object: T) => DocFeatures,
  vocabulary: Vocabulary,
): Generator<void, Collection, void> {
  const count = list.length;
  const docs: Doc[] = new Array(count);
  const byKey = new RefIndex<Doc>();
  const byReference = new RefIndex<Doc>();
  const columns = new ColumnsBuilder(count, vocabulary);
  const postings = new PostingsBuilder();
  const text = new TextIndexBuilder();
  const extras = new ExtrasBuilder(kind, count);
  for (let i = 0; i < count; i++) {
    const object = list.at(i);
    if (object === undefined) throw new Error(`the ${kind} list has no item at ${i} of ${count}`);
    const f = extract(object);
    const doc: Doc = {
      kind,
      index: i,
      key: f.key,
      containerKey: f.containerKey,
      reference: f.reference,
      gradable: f.gradable,
      // The interned name: one string per family, not one per doc.
      family: f.family === null ? null : vocabulary.families.canonical(f.family),
      minimal: f.minimal,
    };
    docs[i] = doc;
    byKey.set(doc.containerKey, doc.key, doc);
    if (doc.reference !== null) byReference.set(doc.containerKey, `${doc.reference}`, doc);
    const ids = columns.add(i, f);
    postings.add(i, ids.skills, ids.languages, ids.tags);
    text.add(i, f.text);
    extras.add(i, object);
    if (i % STEP_OBJECTS === STEP_OBJECTS - 1) yield;
  }
  yield;
  const built = columns.build();
  yield;
  const builtPostings = postings.build(count);
  yield;
  const builtText = text.build(count);
  yield;
  const geo = new GeoGrid(built);
  yield;
  const orders = sortOrders(
    docs.map((d) => d.key),
    built.created,
    built.updated,
  );
  const full = (index: number): T => {
    const object = list.at(index);
    if (object === undefined) throw new Error(`the ${kind} list has no item at ${index}`);
    return object;
  };
  // A small list gets a ring to its size (16 KB an object is plenty), not the whole budget.
  const json = new JsonCache(count, Math.min(JSON_CACHE_BYTES, Math.max(count, 4) * 16 * 1024));
  return {
    kind,
    containers: new Map(containers.map((c) => [c.key, c])),
    docs,
    byKey,
    byReference,
    vocabulary,
    columns: built,
    postings: builtPostings,
    text: builtText,
    extras: extras.build(),
    geo,
    orders,
    scores: new BoundedCache({ maxEntries: SCORE_CACHE_ENTRIES }),
    full,
    json: (index) => json.get(index, () => JSON.stringify(full(index))),
  };
}
