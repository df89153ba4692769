/** Turning a query string or a JSON body into one map of raw values, by parameter name. */

export type Raw = Record<string, unknown>;
export type Problem = { param: string; message: string };

type Tree = { [key: string]: Tree | string };

/** Values that say "not sent": empty, or what a client makes of its null (`str(None)`). */
const ABSENT = ['', 'None', 'null'];

const BRACKETS = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;

const decodePart = (part: string): string => decodeURIComponent(part.replace(/\+/g, ' '));

/** `{0: a, 1: b}` (what `a[0]=…&a[1]=…` builds) becomes `[a, b]`, all the way down. */
const arrays = (value: Tree | string): unknown => {
  if (typeof value === 'string') return value;
  const keys = Object.keys(value);
  const values = keys.map((key) => arrays(value[key] as Tree | string));
  const numbered = keys.length > 0 && keys.every((key) => /^\d+$/.test(key));
  if (!numbered) return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
  return keys
    .map((key, i) => [Number(key), values[i]] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, item]) => item);
};

/** Puts `value` at `path` under `node`; an empty segment (`[]`) appends. */
const place = (node: Tree, path: string[], value: string): void => {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const slot = head === '' ? String(Object.keys(node).length) : head;
  if (rest.length === 0) {
    node[slot] = value;
    return;
  }
  const next = node[slot];
  const child: Tree = typeof next === 'object' ? next : {};
  node[slot] = child;
  place(child, rest, value);
};

/**
 * Reads a query string: names trimmed, `+` as a space, a repeated name as a list, and the
 * bracket forms of HTTP libraries (`a[]=x`, `a[0]=x`, `a[lat]=x`) as lists and objects.
 */
export const readQuery = (search: string): { raw: Raw } | { problem: Problem } => {
  const plain = new Map<string, string[]>();
  const trees = new Map<string, Tree>();
  for (const part of search.split('&')) {
    if (part === '') continue;
    const cut = part.indexOf('=');
    const rawName = cut < 0 ? part : part.slice(0, cut);
    let name: string;
    let value: string;
    try {
      name = decodePart(rawName).trim();
      value = cut < 0 ? '' : decodePart(part.slice(cut + 1));
    } catch {
      const param = rawName.replace(/%[0-9a-fA-F]{0,2}/g, '').trim() || 'query';
      return { problem: { param, message: `${param} is not valid percent-encoding` } };
    }
    if (name === '') continue;
    const bracket = BRACKETS.exec(name);
    if (bracket?.[1] !== undefined && bracket[2] !== undefined) {
      const base = bracket[1].trim();
      const path = [...bracket[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => (m[1] ?? '').trim());
      const tree = trees.get(base) ?? {};
      trees.set(base, tree);
      place(tree, path, value);
      continue;
    }
    plain.set(name, [...(plain.get(name) ?? []), value]);
  }
  const raw: Raw = {};
  for (const [name, values] of plain) {
    const given = values.filter((value) => !ABSENT.includes(value.trim()));
    if (given.length > 0) raw[name] = given.length === 1 ? given[0] : given;
  }
  for (const [name, tree] of trees) if (!(name in raw)) raw[name] = arrays(tree);
  return { raw };
};

/** A body's fields with their names trimmed; `null` and `''` are absent. */
export const readBody = (body: Record<string, unknown>): Raw =>
  Object.fromEntries(
    Object.entries(body)
      .map(([name, value]) => [name.trim(), value] as const)
      .filter(([, value]) => value !== null && value !== '' && value !== undefined),
  );

/** A Python literal (`['a', 'b']`, `{'lat': 1}`, `True`, `None`) rewritten as JSON. */
const pythonToJson = (text: string): string => {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      let j = i + 1;
      let body = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j += 1;
        body += text[j];
        j += 1;
      }
      out += JSON.stringify(body);
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z_]+/.exec(text.slice(i))?.[0];
    if (word !== undefined) {
      out +=
        word === 'True' ? 'true' : word === 'False' ? 'false' : word === 'None' ? 'null' : word;
      i += word.length;
      continue;
    }
    out += c;
    i += 1;
  }
  return out;
};

/** A text that holds a list or an object: JSON, or else a Python literal; `undefined` if neither. */
export const structured = (text: string): unknown => {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    try {
      return JSON.parse(pythonToJson(trimmed));
    } catch {
      return undefined;
    }
  }
};
