import type { RawParams } from '../hr/params.ts';

/**
 * The shapes HTTP libraries give lists and objects in a query string, decoded into the values
 * the JSON-encoded form carries, so that every form reaches the parameter reader as one request:
 *
 * - `name=v&name=w` (Python `requests` and `httpx` with a list, `URLSearchParams.append`):
 *   a list of the values;
 * - `name[]=v&name[]=w` (axios 1.x and PHP with a flat list): a list;
 * - `name[0]=v&name[1]=w` (`qs`, PHP with indexes): a list, in index order;
 * - `name[field]=v` (axios 1.x and `qs` with an object, e.g. `location_geopoint[lat]=45.7`): an
 *   object;
 * - any nesting of the two (`profile_ids[0][source_key]=…`, `tags_included[0][0][name]=…`).
 *
 * Leaves stay strings: the reader converts them as it converts any query value. A name sent
 * both plainly and with brackets keeps its plain value.
 */
export function paramsFromPairs(pairs: Iterable<[string, string]>): RawParams {
  const raw: RawParams = new Map();
  const nested = new Map<string, Branch>();
  for (const [sent, value] of pairs) {
    const name = paramName(sent);
    const path = bracketPath(name);
    if (path === null) {
      const seen = raw.get(name);
      if (seen === undefined) raw.set(name, value);
      else raw.set(name, Array.isArray(seen) ? [...seen, value] : [seen, value]);
      continue;
    }
    const [root, ...segments] = path;
    let branch = nested.get(root as string);
    if (branch === undefined) {
      branch = newBranch();
      nested.set(root as string, branch);
    }
    place(branch, segments, value);
  }
  for (const [name, branch] of nested) {
    if (!raw.has(name)) raw.set(name, settle(branch));
  }
  return raw;
}

/**
 * A parameter's name without the white space a client padded it with: HrFlow's own notebooks
 * send `%20%20algorithm_key`. A name that starts and ends with a visible character is kept as is.
 */
export function paramName(name: string): string {
  const last = name.length - 1;
  if (last < 0) return name;
  return padded(name.charCodeAt(0)) || padded(name.charCodeAt(last)) ? name.trim() : name;
}

function padded(code: number): boolean {
  return code <= 32 || code === 0xa0 || code === 0xfeff || (code >= 0x1680 && code <= 0x3000);
}

/**
 * The name/value pairs of a query string (without its `?`), decoded as `URLSearchParams` does:
 * `+` is a space, `%XX` a byte of UTF-8. Split and decoded here, without a URLSearchParams
 * object, as a grading URL of ~1.6 KB is read on every request; a string the fast decoding
 * refuses (a malformed escape, bytes that are not UTF-8) is read by URLSearchParams, which
 * replaces what it cannot decode.
 */
export function queryPairs(search: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (let start = 0; start < search.length; ) {
    let end = search.indexOf('&', start);
    if (end < 0) end = search.length;
    if (end > start) {
      const eq = search.indexOf('=', start);
      const split = eq >= 0 && eq < end;
      const name = decodePart(search.slice(start, split ? eq : end));
      const value = split ? decodePart(search.slice(eq + 1, end)) : '';
      if (name === undefined || value === undefined) return [...new URLSearchParams(search)];
      pairs.push([name, value]);
    }
    start = end + 1;
  }
  return pairs;
}

function decodePart(part: string): string | undefined {
  const spaced = part.includes('+') ? part.replaceAll('+', ' ') : part;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** How deep brackets may nest: deeper names are not decoded (and so are unknown, ignored). */
const MAX_SEGMENTS = 6;
/** Past this many digits an index is a field name: no list is that long, and sorting stays exact. */
const MAX_INDEX_DIGITS = 9;
const NAME = /^([A-Za-z_][\w.-]*)((?:\[[^[\]]*\])+)$/;
const SEGMENT = /\[([^[\]]*)\]/g;

/** `a[0][b]` → `['a', '0', 'b']`; a name without brackets, or a malformed one, → null. */
function bracketPath(name: string): string[] | null {
  if (!name.endsWith(']')) return null;
  const parts = NAME.exec(name);
  if (parts === null) return null;
  const segments = [...(parts[2] as string).matchAll(SEGMENT)].map((m) => m[1] as string);
  return segments.length > MAX_SEGMENTS ? null : [parts[1] as string, ...segments];
}

/**
 * One node of a decoded value while pairs arrive: `[]` pushes, digits index, names are fields.
 * The first segment seen decides what the node is; a later one of the other kind is a field.
 */
type Branch = {
  pushed: Node[];
  indexed: Map<number, Node>;
  fields: Map<string, Node>;
};
type Node = string | Branch;

function newBranch(): Branch {
  return { pushed: [], indexed: new Map(), fields: new Map() };
}

function place(branch: Branch, segments: string[], value: string): void {
  const [segment, ...rest] = segments as [string, ...string[]];
  if (segment === '') {
    if (rest.length === 0) {
      branch.pushed.push(value);
      return;
    }
    // `a[][x]=1&a[][y]=2&a[][x]=3` (qs's brackets format): as Rack reads it, a field joins the
    // last item unless that item has it already, which starts the next: [{x, y}, {x}].
    const last = branch.pushed.at(-1);
    if (last !== undefined && typeof last !== 'string' && !has(last, rest))
      place(last, rest, value);
    else branch.pushed.push(placed(newBranch(), rest, value));
    return;
  }
  const slot = isIndex(segment) ? branch.indexed : branch.fields;
  const key = isIndex(segment) ? Number(segment) : segment;
  const slotMap = slot as Map<string | number, Node>;
  if (rest.length === 0) {
    // A leaf sent twice keeps both, as a repeated plain name does: `a[x]=1&a[x]=2` is ambiguous
    // (qs's `repeat` format of a list of objects), and a list where one value goes says so.
    const seen = slotMap.get(key);
    if (seen === undefined) slotMap.set(key, value);
    else if (typeof seen === 'string') slotMap.set(key, { ...newBranch(), pushed: [seen, value] });
    else seen.pushed.push(value);
    return;
  }
  const child = slotMap.get(key);
  if (child !== undefined && typeof child !== 'string') place(child, rest, value);
  else slotMap.set(key, placed(newBranch(), rest, value));
}

/** Whether `branch` already holds a value at the path of `segments`. */
function has(branch: Branch, segments: string[]): boolean {
  const [segment, ...rest] = segments as [string, ...string[]];
  if (segment === '') return false;
  const child = isIndex(segment) ? branch.indexed.get(Number(segment)) : branch.fields.get(segment);
  if (child === undefined) return false;
  return rest.length === 0 || typeof child === 'string' || has(child, rest);
}

function placed(branch: Branch, segments: string[], value: string): Branch {
  place(branch, segments, value);
  return branch;
}

function isIndex(segment: string): boolean {
  return segment.length <= MAX_INDEX_DIGITS && /^\d+$/.test(segment);
}

/**
 * A finished node: a node with a named field is an object (its indexes become fields too);
 * otherwise a list of the indexed items, in index order, then the pushed ones.
 */
function settle(node: Node): unknown {
  if (typeof node === 'string') return node;
  if (node.fields.size > 0) {
    // A null prototype: `__proto__` or `constructor` sent as a field is data, not a setter.
    const object: Record<string, unknown> = Object.create(null);
    for (const [index, child] of node.indexed) object[String(index)] = settle(child);
    for (const [field, child] of node.fields) object[field] = settle(child);
    return object;
  }
  const indexed = [...node.indexed.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  return [...indexed, ...node.pushed].map(settle);
}
