import { editDistance } from '../engine/edit-distance.ts';
import type { RawParams } from '../hr/params.ts';
import { contractDoc } from './contract-doc.ts';

/** The names an operation documents: its query parameters, and on POST its body's members too. */
export type Documented = ReadonlySet<string>;

type Schema = {
  $ref?: string;
  properties?: Record<string, unknown>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Operation = {
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

const documented = new Map<string, Documented>();

/**
 * The parameter names the contract documents for `method` on `path`, read from it once per
 * operation. POST merges the query under the body, so the GET's query names count there too.
 */
export function documentedParams(method: 'GET' | 'POST', path: string): Documented {
  const id = `${method} ${path}`;
  let names = documented.get(id);
  if (names === undefined) {
    const item = contractDoc().paths[path] as Record<string, Operation> | undefined;
    const found = new Set<string>(queryNames(item?.get));
    if (method === 'POST') {
      for (const name of queryNames(item?.post)) found.add(name);
      const content = item?.post?.requestBody?.content ?? {};
      for (const media of Object.values(content)) bodyNames(media.schema, found);
    }
    names = found;
    documented.set(id, names);
  }
  return names;
}

/** Whether every name of the request is documented: one Set lookup a parameter. */
export function allDocumented(raw: RawParams, names: Documented): boolean {
  for (const name of raw.keys()) if (!names.has(name)) return false;
  return true;
}

/** Unknown names listed in one warning at most; the rest are counted. */
const MAX_LISTED = 5;
/** The longest name compared or shown; a longer one is cut. */
const LONGEST_NAME = 64;

/**
 * The warning for the names of a request that `names` does not hold, each with the closest
 * documented name when one is close; undefined when all are documented. Bounded in length.
 */
export function unknownParamsWarning(raw: RawParams, names: Documented): string | undefined {
  if (allDocumented(raw, names)) return undefined;
  const unknown = [...raw.keys()].filter((name) => !names.has(name));
  const listed = unknown.slice(0, MAX_LISTED).map((name) => {
    const near = closest(name, names);
    return { shown: quoted(name), near: near === undefined ? undefined : quoted(near) };
  });
  const more = unknown.length > MAX_LISTED ? ` and ${unknown.length - MAX_LISTED} more` : '';
  const [only] = listed;
  if (listed.length === 1 && only !== undefined)
    return `unknown parameter ${only.shown}${only.near === undefined ? '' : `; did you mean ${only.near}?`}`;
  const each = listed.map((u) =>
    u.near === undefined ? u.shown : `${u.shown} (did you mean ${u.near}?)`,
  );
  return `unknown parameters ${each.join(', ')}${more}`;
}

/**
 * The documented name closest to `sent`: within two edits, or one that starts with it or that it
 * starts with (a plural, a cut name); undefined when none is that close.
 */
export function closest(sent: string, names: Documented): string | undefined {
  if (sent.length > LONGEST_NAME) return undefined;
  const lower = sent.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const d = editDistance(lower, name, 2);
    const prefix =
      Math.min(lower.length, name.length) >= 4 &&
      (name.startsWith(lower) || lower.startsWith(name));
    const score = d <= 2 ? d : prefix ? 3 : Number.POSITIVE_INFINITY;
    if (score < bestDistance) {
      best = name;
      bestDistance = score;
    }
  }
  return best;
}

/** A name in quotes, printable ASCII only (a header value), cut when long. */
function quoted(name: string): string {
  const cut = name.length > LONGEST_NAME ? `${name.slice(0, LONGEST_NAME)}...` : name;
  return JSON.stringify(cut).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function queryNames(operation: Operation | undefined): string[] {
  const names: string[] = [];
  for (const parameter of operation?.parameters ?? []) {
    const resolved = resolve(parameter) as { name?: string; in?: string };
    if (resolved.in === 'query' && typeof resolved.name === 'string') names.push(resolved.name);
  }
  return names;
}

function bodyNames(schema: Schema | undefined, into: Set<string>, depth = 0): void {
  const resolved = resolve(schema) as Schema | undefined;
  if (resolved === undefined || depth > 8) return;
  for (const name of Object.keys(resolved.properties ?? {})) into.add(name);
  for (const part of [
    ...(resolved.allOf ?? []),
    ...(resolved.oneOf ?? []),
    ...(resolved.anyOf ?? []),
  ])
    bodyNames(part, into, depth + 1);
}

/** A `#/…` reference of the contract followed to what it names. */
function resolve<T extends { $ref?: string }>(value: T | undefined): unknown {
  let at: unknown = value;
  for (let hops = 0; hops < 8; hops++) {
    const ref = (at as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return at;
    at = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key],
        contractDoc(),
      );
  }
  return at;
}
