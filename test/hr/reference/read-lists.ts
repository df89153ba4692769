import { decoded, type Named, type Reading } from './read-values.ts';

// The list parameters as the contract describes them: keyword lists and name/value filters, in
// a JSON array, its JSON text, or one entry per repeated query key; each capped at 50.

/** At most this many distinct keywords, items or tags per list parameter; else a 400. */
export const CAP = 50;
/** At most this many characters in one keyword. */
export const KEYWORD_LENGTH = 100;

/** The entries of a list parameter: an array as sent, a JSON array's text, or one JSON value. */
function entries(read: Reading, name: string): unknown[] | undefined {
  const value = read.raw.get(name);
  if (Array.isArray(value)) return value;
  const list = decoded(value);
  if (Array.isArray(list)) return list;
  // One item (a repeated key sent once, or `name[field]=…`): a list of one.
  return typeof list === 'object' && list !== null ? [list] : undefined;
}

/**
 * Keywords: non-empty strings, as sent; a plain `a,b` (URLSearchParams' list) too, its empty
 * parts dropped. A keyword repeated, in any case, counts once. Absent or empty: undefined.
 */
export function keywords(read: Reading, name: string): string[] | undefined {
  if (!read.sent(name)) return undefined;
  const value = read.raw.get(name);
  const plain = typeof value === 'string' && !/^\s*[[{"]/.test(value);
  const list = plain ? value.split(',').filter((k) => k !== '') : entries(read, name);
  if (list === undefined || !list.every((k) => typeof k === 'string' && k !== ''))
    return read.bad(name);
  const distinct: string[] = [];
  for (const keyword of list as string[]) {
    if (!distinct.some((k) => k.toLowerCase() === keyword.toLowerCase())) distinct.push(keyword);
  }
  if (distinct.length > CAP || distinct.some((k) => k.length > KEYWORD_LENGTH))
    return read.bad(name);
  return distinct.length === 0 ? undefined : distinct;
}

/** `{name, value}` (its JSON text too); a number or boolean value is its text, `''` is null. */
function named(entry: unknown): Named | undefined {
  const item = decoded(entry) as { name?: unknown; value?: unknown } | null;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const { name, value } = item;
  // Names as sent: the contract says nothing of white space around a value (src trims it).
  if (typeof name !== 'string' || name === '') return undefined;
  if (value === undefined || value === null || value === '') return { name, value: null };
  const text = ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : undefined;
  return text === undefined ? undefined : { name, value: text };
}

/** Skills, languages, interests, `tags`: name/value filters. Absent or empty: undefined. */
export function namedList(read: Reading, name: string): Named[] | undefined {
  if (!read.sent(name)) return undefined;
  const items = entries(read, name)?.map(named);
  if (items === undefined || items.some((i) => i === undefined) || items.length > CAP)
    return read.bad(name);
  return items.length === 0 ? undefined : (items as Named[]);
}

/**
 * `tags_included` / `tags_excluded`: a flat list `[A, B]` is the groups [A], [B]; a list of
 * lists `[[A, B], [C]]` the groups themselves. At most 50 tags across the groups.
 */
export function tagGroups(read: Reading, name: string): Named[][] | undefined {
  if (!read.sent(name)) return undefined;
  const groups = entries(read, name)?.map((entry) => {
    const group = decoded(entry);
    return (Array.isArray(group) ? group : [group]).map(named);
  });
  const good = groups?.every((g) => g.every((t) => t !== undefined));
  if (groups === undefined || !good || groups.flat().length > CAP) return read.bad(name);
  return groups.length === 0 ? undefined : (groups as Named[][]);
}
