import { DocSet } from './doc-set.ts';
import { IntBuffer, intersectSorted, unionSorted } from './int-lists.ts';
import { Lru } from './lru.ts';
import { forEachWordRun, wordRuns } from './word-runs.ts';

/** Docs that may contain a keyword; `exact` when every one of them does (no check needed). */
export type KeywordCandidates = { set: DocSet; exact: boolean };

/**
 * Keyword sets kept: at most 512, and 8 million doc indices in all (32 MB), counting for each set
 * its ids and the grid positions a distance search may make of them (`GeoGrid.positionsOf`).
 */
const KEYWORD_CACHE = { maxEntries: 512, maxIds: 8_000_000 };

/**
 * Tokens (maximal runs of letters and digits of the lowercased texts) → the sorted docs holding
 * them. A keyword matches by substring, so it is not looked up as a token: a doc whose text
 * contains keyword K contains each run of letters and digits of K inside one of its tokens, so
 * the docs of every token that contains the run are candidates, and a keyword that is one run
 * is matched exactly by them.
 */
export class TextIndex {
  readonly #universe: number;
  readonly #starts: Int32Array;
  readonly #docs: Int32Array;
  /** Every token, one per line, to find the tokens containing a run with one `indexOf` scan. */
  readonly #joined: string;
  readonly #offsets: Int32Array;
  readonly #cache: Lru<string, KeywordCandidates | null>;

  constructor(tokens: string[], starts: Int32Array, docs: Int32Array, universe: number) {
    this.#universe = universe;
    this.#starts = starts;
    this.#docs = docs;
    this.#joined = tokens.join('\n');
    this.#offsets = new Int32Array(tokens.length + 1);
    let at = 0;
    for (let t = 0; t < tokens.length; t++) {
      this.#offsets[t] = at;
      at += (tokens[t] as string).length + 1;
    }
    this.#offsets[tokens.length] = at;
    this.#cache = new Lru({
      maxEntries: KEYWORD_CACHE.maxEntries,
      maxWeight: KEYWORD_CACHE.maxIds,
      weigh: (value) => 2 * (value?.set.size ?? 0),
    });
  }

  /** Candidates for a lowercased keyword; null when it has no letter or digit to look up. */
  candidates(keyword: string): KeywordCandidates | null {
    return this.#cache.getOr(keyword, () => this.#lookUp(keyword));
  }

  #lookUp(keyword: string): KeywordCandidates | null {
    const runs = wordRuns(keyword);
    if (runs.length === 0) return null;
    const lists = [...new Set(runs)].map((run) => this.#containing(run));
    lists.sort((a, b) => a.length - b.length);
    let ids = lists[0] as Int32Array;
    for (let i = 1; i < lists.length && ids.length > 0; i++) {
      ids = intersectSorted(ids, lists[i] as Int32Array);
    }
    return {
      set: new DocSet(ids, this.#universe),
      exact: runs.length === 1 && runs[0] === keyword,
    };
  }

  /** The docs having a token that contains `run`. */
  #containing(run: string): Int32Array {
    const lists: Int32Array[] = [];
    const joined = this.#joined;
    const offsets = this.#offsets;
    let from = 0;
    for (;;) {
      const at = joined.indexOf(run, from);
      if (at < 0) break;
      const token = tokenAt(offsets, at);
      lists.push(this.#docs.subarray(this.#starts[token], this.#starts[token + 1]));
      from = offsets[token + 1] as number;
    }
    return unionSorted(lists, this.#universe);
  }
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
  readonly #occurrences = new IntBuffer(1 << 16);
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
      }
      if (this.#lastDoc[id] !== index) {
        this.#lastDoc[id] = index;
        this.#occurrences.push(id);
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
    const postings = new Int32Array(tokens.length);
    // Occurrences are in doc order, so each token's list comes out sorted.
    for (let doc = 0; doc + 1 < docStarts.length; doc++) {
      for (let i = docStarts[doc] as number; i < (docStarts[doc + 1] as number); i++) {
        const token = tokens[i] as number;
        postings[fill[token] as number] = doc;
        fill[token] = (fill[token] as number) + 1;
      }
    }
    return new TextIndex(this.#tokens, starts, postings, universe);
  }
}
