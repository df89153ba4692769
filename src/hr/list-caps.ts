import type { ItemFilter, ParamReader } from './params.ts';

/**
 * How much one search may ask for. Each list multiplies the work of a search; the caps lie far
 * above what clients send (the SDKs' users send a handful of keywords or skills) and are
 * documented with each parameter in the contract. Profile and job batches (`profile_ids`,
 * `job_ids`) have their own cap, `MAX_BATCH`.
 */
export const LIST_CAPS = {
  /** Distinct keywords (ignoring case) of `text_keywords` and of each SDK keyword filter. */
  keywords: 50,
  /** Characters of one keyword. */
  keywordLength: 100,
  /** Items of `skills`, `languages`, `interests`; tags of `tags_included`, `tags_excluded`, `tags`. */
  items: 50,
} as const;

/**
 * The keywords, each once: a keyword matches ignoring case, so the first spelling of each stands
 * for all. Over the caps, an error naming the parameter and undefined.
 */
export function cappedKeywords(
  read: ParamReader,
  name: string,
  keywords: string[] | undefined,
): string[] | undefined {
  if (keywords === undefined || keywords.length === 0) return undefined;
  const distinct = distinctIgnoringCase(keywords);
  const long = distinct.find((k) => k.length > LIST_CAPS.keywordLength);
  if (long !== undefined) {
    read.error(
      name,
      `${name} holds a keyword of ${long.length} characters; a keyword may have at most ${LIST_CAPS.keywordLength}: send its most telling words as keywords of their own`,
    );
    return undefined;
  }
  if (distinct.length > LIST_CAPS.keywords) {
    read.error(
      name,
      `${name} holds ${distinct.length} distinct keywords; at most ${LIST_CAPS.keywords} can be searched in one request: send the ones that matter most (every keyword must appear, so a few narrow the search as well as many)`,
    );
    return undefined;
  }
  return distinct;
}

/** The items, or an error naming the parameter and undefined when there are more than the cap. */
export function cappedItems<T extends ItemFilter | ItemFilter[]>(
  read: ParamReader,
  name: string,
  items: T[] | undefined,
): T[] | undefined {
  if (items === undefined) return undefined;
  let count = 0;
  for (const item of items) count += Array.isArray(item) ? item.length : 1;
  if (count <= LIST_CAPS.items) return items;
  read.error(
    name,
    `${name} holds ${count} items; at most ${LIST_CAPS.items} can be filtered on in one request: send the ones that matter most`,
  );
  return undefined;
}

/** The list without the entries equal, ignoring case, to an earlier one; the list itself if none. */
function distinctIgnoringCase(keywords: string[]): string[] {
  if (keywords.length === 1) return keywords;
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const keyword of keywords) {
    const lowered = keyword.toLowerCase();
    if (seen.has(lowered)) continue;
    seen.add(lowered);
    kept.push(keyword);
  }
  return kept.length === keywords.length ? keywords : kept;
}
