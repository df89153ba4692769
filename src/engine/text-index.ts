import { BoundedCache } from './bounded-cache.ts';
import { DocSet } from './doc-set.ts';
import { IntBuffer, Scratch } from './int-lists.ts';
import { forEachWordRun, wordRuns } from './word-runs.ts';

/**
 * Docs that may contain a keyword; `exact` when every one of them does (no check needed).
 * `hits[k]`: how often the keyword occurs in doc `set.ids[k]` (a keyword of several runs of
 * letters and digits: its least frequent run). `cost`: what finding them costs (`TextIndex.cost`).
 */
export type KeywordCandidates = { set: DocSet; exact: boolean; hits: Int32Array; cost: LookUpCost };

/**
 * Posting entries a keyword's lookup reads, at most how many docs it finds, and whether they all
 * hold it (else each is checked on its text).
 */
export type LookUpCost = { postings: number; docs: number; exact: boolean };

/** Docs and how often a run occurs in each, in doc order. */
type Occurrences = { ids: Int32Array; hits: Int32Array };

/**
 * Keyword sets kept: at most 512, and 8 million doc indices in all (32 MB), counting for each set
 * its ids, its hits and the grid positions a distance search may make of them
 * (`GeoGrid.positionsOf`).
 */
const KEYWORD_CACHE = { maxEntries: 512, maxIds: 8_000_000 };

/**
 * Tokens (maximal runs of letters and digits of the lowercased texts) → the sorted docs holding
 * them, with how often each doc holds each. A keyword matches by substring, so it is not looked up
 * as a token: a doc whose text contains keyword K contains each run of letters and digits of K
 * inside one of its tokens, so the docs of every token that contains the run are candidates, and
 * a keyword that is one run is matched exactly by them. A run's occurrences in a doc are those
 * inside its tokens (a run cannot straddle two), counted from the postings.
 */
export class TextIndex {
  readonly #universe: number;
  readonly #starts: Int32Array;
  readonly #docs: Int32Array;
  /** Times each posting's token occurs in its doc, up to 255. */
  readonly #counts: Uint8Array;
  /** Every token, one per line, to find the tokens containing a run with one `indexOf` scan. */
  readonly #joined: string;
  readonly #offsets: Int32Array;
  readonly #cache: BoundedCache<string, KeywordCandidates | null>;
  /** `#entriesOf` of the runs seen last: a costly keyword's runs are read once, not per request. */
  readonly #runCosts = new BoundedCache<string, number>({ maxEntries: 4096 });

  constructor(
    tokens: string[],
    starts: Int32Array,
    postings: { docs: Int32Array; counts: Uint8Array },
    universe: number,
  ) {
    this.#universe = universe;
    this.#starts = starts;
    this.#docs = postings.docs;
    this.#counts = postings.counts;
    this.#joined = tokens.join('\n');
    this.#offsets = new Int32Array(tokens.length + 1);
    let at = 0;
    for (let t = 0; t < tokens.length; t++) {
      this.#offsets[t] = at;
      at += (tokens[t] as string).length + 1;
    }
    this.#offsets[tokens.length] = at;
    this.#cache = new BoundedCache({
      maxEntries: KEYWORD_CACHE.maxEntries,
      maxCost: KEYWORD_CACHE.maxIds,
      costOf: (value) => 3 * (value?.set.size ?? 0),
    });
  }

  /** Candidates for a lowercased keyword; null when it has no letter or digit to look up. */
  candidates(keyword: string): KeywordCandidates | null {
    return this.#cache.getOr(keyword, () => this.#lookUp(keyword));
  }

  /**
   * What `candidates(keyword)` costs when it is not cached: the posting entries it reads
   * (`postings`), and at most how many docs it finds (`docs`: its rarest run's entries). The same
   * whether it is cached or not, so that a limit on it answers a request the same way every time.
   */
  cost(keyword: string): LookUpCost {
    const known = this.#cache.get(keyword);
    if (known !== undefined) return known === null ? this.#costOf(keyword, []) : known.cost;
    return this.#costOf(keyword, wordRuns(keyword));
  }

  #costOf(keyword: string, runs: string[]): LookUpCost {
    let postings = 0;
    let docs = this.#universe;
    for (const run of new Set(runs)) {
      const entries = this.#runCosts.getOr(run, () => this.#entriesOf(run));
      postings += entries;
      docs = Math.min(docs, entries);
    }
    return { postings, docs, exact: runs.length === 1 && runs[0] === keyword };
  }

  /** The posting entries of the tokens that contain `run`. */
  #entriesOf(run: string): number {
    let entries = 0;
    this.#forEachToken(run, (token) => {
      entries += (this.#starts[token + 1] as number) - (this.#starts[token] as number);
    });
    return entries;
  }

  #lookUp(keyword: string): KeywordCandidates | null {
    const runs = wordRuns(keyword);
    if (runs.length === 0) return null;
    const lists = [...new Set(runs)].map((run) => this.#containing(run));
    lists.sort((a, b) => a.ids.length - b.ids.length);
    let found: Occurrences = lists[0] as Occurrences;
    for (let i = 1; i < lists.length && found.ids.length > 0; i++) {
      found = intersectFewest(found, lists[i] as Occurrences);
    }
    const cost = this.#costOf(keyword, runs);
    return {
      set: new DocSet(found.ids, this.#universe),
      exact: cost.exact,
      hits: found.hits,
      cost,
    };
  }

  /** Calls `visit` with each token that contains `run`. */
  #forEachToken(run: string, visit: (token: number) => void): void {
    const joined = this.#joined;
    const offsets = this.#offsets;
    let from = 0;
    for (;;) {
      const at = joined.indexOf(run, from);
      if (at < 0) break;
      const token = tokenAt(offsets, at);
      visit(token);
      from = offsets[token + 1] as number;
    }
  }

  /** The docs having a token that contains `run`, with how often `run` occurs in each. */
  #containing(run: string): Occurrences {
    const starts = this.#starts;
    const docs = this.#docs;
    const counts = this.#counts;
    const sums = SUMS.take(this.#universe);
    const touched = TOUCHED;
    touched.clear();
    this.#forEachToken(run, (token) => {
      const times = occurrences(this.#joined, this.#offsets, token, run);
      const to = starts[token + 1] as number;
      for (let p = starts[token] as number; p < to; p++) {
        const doc = docs[p] as number;
        if (sums[doc] === 0) touched.push(doc);
        sums[doc] = (sums[doc] as number) + times * (counts[p] as number);
      }
    });
    const ids = sortedIds(touched, sums, this.#universe);
    const hits = new Int32Array(ids.length);
    for (let k = 0; k < ids.length; k++) {
      const doc = ids[k] as number;
      hits[k] = sums[doc] as number;
      sums[doc] = 0;
    }
    return { ids, hits };
  }
}

/**
 * How often each doc holds a run, summed over tokens: kept zero between lookups (one at a time),
 * only the docs touched being set back.
 */
const SUMS = new Scratch((length) => new Int32Array(length));
const TOUCHED = new IntBuffer(1024);

/** The touched docs in order: sorted when few, else read off the sums in one pass. */
function sortedIds(touched: IntBuffer, sums: Int32Array, universe: number): Int32Array {
  if (touched.length * 8 < universe) return touched.toArray().sort();
  const ids = new Int32Array(touched.length);
  let n = 0;
  for (let doc = 0; doc < universe; doc++) if (sums[doc] !== 0) ids[n++] = doc;
  return ids;
}

/** The non-overlapping occurrences of `run` in the token's line of the joined tokens. */
function occurrences(joined: string, offsets: Int32Array, token: number, run: string): number {
  const end = (offsets[token + 1] as number) - 1;
  let times = 0;
  for (let at = joined.indexOf(run, offsets[token]); at !== -1 && at + run.length <= end; ) {
    times++;
    at = joined.indexOf(run, at + run.length);
  }
  return times;
}

/** The docs in both, each with the fewer of its two hits. */
function intersectFewest(a: Occurrences, b: Occurrences): Occurrences {
  const ids = new IntBuffer(Math.min(a.ids.length, b.ids.length));
  const hits = new IntBuffer(Math.min(a.ids.length, b.ids.length));
  let i = 0;
  let j = 0;
  while (i < a.ids.length && j < b.ids.length) {
    const x = a.ids[i] as number;
    const y = b.ids[j] as number;
    if (x === y) {
      ids.push(x);
      hits.push(Math.min(a.hits[i] as number, b.hits[j] as number));
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return { ids: ids.toArray(), hits: hits.toArray() };
}

/** The token whose line in the joined text holds position `at`. */
function tokenAt(offsets: Int32Array, at: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if ((offsets[mid] as number) <= at) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Collects the tokens of each doc's text, in doc order, then lays out the posting lists. */
export class TextIndexBuilder {
  readonly #ids = new Map<string, number>();
  readonly #tokens: string[] = [];
  /** The last doc each token was seen in, so a doc lists a token once. */
  readonly #lastDoc: number[] = [];
  /** Where in `#occurrences` the token was last listed: its count grows there. */
  readonly #lastAt: number[] = [];
  readonly #occurrences = new IntBuffer(1 << 16);
  /** How often each occurrence's token is in its doc. */
  readonly #times = new IntBuffer(1 << 16);
  /** Where each doc's tokens start in `#occurrences`. */
  readonly #docStarts = new IntBuffer(1 << 10);

  /** Docs must be added in index order, from 0. */
  add(index: number, text: string): void {
    this.#docStarts.push(this.#occurrences.length);
    forEachWordRun(text, (start, end) => {
      const token = text.slice(start, end);
      let id = this.#ids.get(token);
      if (id === undefined) {
        id = this.#tokens.length;
        this.#ids.set(token, id);
        this.#tokens.push(token);
        this.#lastDoc.push(-1);
        this.#lastAt.push(-1);
      }
      if (this.#lastDoc[id] !== index) {
        this.#lastDoc[id] = index;
        this.#lastAt[id] = this.#occurrences.length;
        this.#occurrences.push(id);
        this.#times.push(1);
      } else {
        this.#times.bump(this.#lastAt[id] as number);
      }
    });
  }

  build(universe: number): TextIndex {
    const tokens = this.#occurrences.toArray();
    this.#docStarts.push(tokens.length);
    const docStarts = this.#docStarts.toArray();
    const starts = new Int32Array(this.#tokens.length + 1);
    for (let i = 0; i < tokens.length; i++) {
      const next = (tokens[i] as number) + 1;
      starts[next] = (starts[next] as number) + 1;
    }
    for (let t = 0; t < this.#tokens.length; t++) {
      starts[t + 1] = (starts[t + 1] as number) + (starts[t] as number);
    }
    const fill = starts.slice(0, this.#tokens.length);
    const docs = new Int32Array(tokens.length);
    const counts = new Uint8Array(tokens.length);
    const times = this.#times.view();
    // Occurrences are in doc order, so each token's list comes out sorted.
    for (let doc = 0; doc + 1 < docStarts.length; doc++) {
      for (let i = docStarts[doc] as number; i < (docStarts[doc + 1] as number); i++) {
        const token = tokens[i] as number;
        docs[fill[token] as number] = doc;
        counts[fill[token] as number] = Math.min(255, times[i] as number);
        fill[token] = (fill[token] as number) + 1;
      }
    }
    return new TextIndex(this.#tokens, starts, { docs, counts }, universe);
  }
}
