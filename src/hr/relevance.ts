import { Scratch } from '../engine/int-lists.ts';
import type { Collection } from '../store/store.ts';

/**
 * The `searching` relevance of each doc of `ids`: over the keywords (distinct, ignoring case),
 * the sum of how often each occurs in the doc's text, as the text index counts it (a keyword of
 * several words: its least frequent word; one with no letter or digit: nothing). Read off each
 * keyword's postings, so its cost is the keywords' candidates, whatever the texts hold.
 */
export function relevanceOf(
  collection: Collection,
  ids: Int32Array,
  keywords: readonly string[] | undefined,
): Float64Array {
  const values = new Float64Array(ids.length);
  if (keywords === undefined || ids.length === 0) return values;
  // Each doc's place in `ids`, plus one; zero elsewhere, and again once read.
  const place = PLACES.take(collection.docs.length);
  for (let k = 0; k < ids.length; k++) place[ids[k] as number] = k + 1;
  for (const keyword of keywords) {
    const candidates = collection.text.candidates(keyword.toLowerCase());
    if (candidates === null) continue;
    const docs = candidates.set.ids;
    const { hits } = candidates;
    for (let c = 0; c < docs.length; c++) {
      const at = place[docs[c] as number] as number;
      if (at !== 0) values[at - 1] = (values[at - 1] as number) + (hits[c] as number);
    }
  }
  for (let k = 0; k < ids.length; k++) place[ids[k] as number] = 0;
  return values;
}

/** Kept zero between calls (one at a time). */
const PLACES = new Scratch((length) => new Int32Array(length));
