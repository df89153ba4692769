import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CONTRACT_DIR_URL, CONTRACT_URL, HISTORY_DIR_URL } from '../location.ts';
import { isObject, type JsonObject } from './json-shape.ts';

/** A parsed OpenAPI document: plain JSON values, `$ref`s left in place. */
export type OpenApiDoc = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
};

export { isObject, type JsonObject };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export const contractDir = CONTRACT_DIR_URL;
export const currentContractUrl = CONTRACT_URL;
export const historyDirUrl = HISTORY_DIR_URL;

export function parseContract(text: string): OpenApiDoc {
  const doc = parse(text, { maxAliasCount: -1 }) as unknown;
  if (!isObject(doc) || !isObject(doc.paths)) {
    throw new Error('not an OpenAPI document: it has no paths object');
  }
  return doc as OpenApiDoc;
}

/** The document at `url`, parsed anew: a copy the caller may change. */
export function loadContract(url: URL = currentContractUrl): OpenApiDoc {
  return parseContract(readFileSync(url, 'utf8'));
}

const shared = new Map<string, OpenApiDoc>();

/**
 * The document at `url`, parsed once for the process and frozen: for reading only (each check
 * run and each proxy's judge reads the same one; `loadContract` gives a copy to change).
 */
export function sharedContract(url: URL = currentContractUrl): OpenApiDoc {
  let doc = shared.get(url.href);
  if (doc === undefined) {
    doc = deepFreeze(loadContract(url));
    shared.set(url.href, doc);
  }
  return doc;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Every published contract in contract/history/, oldest name first. */
export function loadHistory(): { name: string; doc: OpenApiDoc }[] {
  return historyNames().map((name) => ({ name, doc: loadContract(new URL(name, historyDirUrl)) }));
}

/** `loadHistory`, each document parsed once for the process and frozen (`sharedContract`). */
export function sharedHistory(): { name: string; doc: OpenApiDoc }[] {
  return historyNames().map((name) => ({
    name,
    doc: sharedContract(new URL(name, historyDirUrl)),
  }));
}

function historyNames(): string[] {
  return readdirSync(historyDirUrl)
    .filter((name) => name.endsWith('.yaml'))
    .sort();
}

/** Follows a local `$ref` chain (`#/components/...`) to the object it names. */
export function deref<T = unknown>(doc: OpenApiDoc, value: T): T {
  let current: unknown = value;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    current = pointer(doc, ref);
  }
  return current as T;
}

export function pointer(doc: OpenApiDoc, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) || !(part in node)) throw new Error(`unresolvable $ref ${ref}`);
    node = node[part];
  }
  return node;
}

export type Operation = { path: string; method: string; operation: JsonObject };

export function operations(doc: OpenApiDoc): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isObject(operation)) found.push({ path, method, operation });
    }
  }
  return found;
}

export type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  [key: string]: unknown;
};

/** The parameters of an operation, path-level ones included, `$ref`s resolved. */
export function parametersOf(doc: OpenApiDoc, path: string, method: string): Parameter[] {
  const item = doc.paths[path] ?? {};
  const operation = item[method];
  const shared = Array.isArray(item.parameters) ? item.parameters : [];
  const own =
    isObject(operation) && Array.isArray(operation.parameters) ? operation.parameters : [];
  const byKey = new Map<string, Parameter>();
  for (const raw of [...shared, ...own]) {
    const parameter = deref(doc, raw) as Parameter;
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}
