import {
  deref,
  isObject,
  type JsonObject,
  type OpenApiDoc,
  operations,
  type Parameter,
  parametersOf,
} from './openapi.ts';

/** One way the current contract breaks a published one. */
export type Break = { where: string; what: string };

/**
 * Where a schema sits decides which changes break clients: a request schema must keep accepting
 * whatever it accepted; a response schema must keep returning whatever it promised.
 */
type Side = 'request' | 'response';

/**
 * The ways `current` is not an additive evolution of `published`: a path, operation, parameter,
 * request body, response or property removed; a parameter or request property newly required; a
 * type or enum narrowed; a request bound, pattern or format tightened.
 */
export function breakingChanges(published: OpenApiDoc, current: OpenApiDoc): Break[] {
  const breaks: Break[] = [];
  for (const { path, method, operation } of operations(published)) {
    const where = `${method.toUpperCase()} ${path}`;
    const currentItem = current.paths[path];
    if (currentItem === undefined) {
      breaks.push({ where: path, what: 'path removed' });
      continue;
    }
    const currentOperation = currentItem[method];
    if (!isObject(currentOperation)) {
      breaks.push({ where, what: 'operation removed' });
      continue;
    }
    const differ = new SchemaDiff(published, current, breaks);
    compareParameters(published, current, path, method, differ);
    compareRequestBody(operation, currentOperation, where, differ);
    compareResponses(operation, currentOperation, where, differ);
  }
  return breaks;
}

function compareParameters(
  published: OpenApiDoc,
  current: OpenApiDoc,
  path: string,
  method: string,
  differ: SchemaDiff,
): void {
  const where = `${method.toUpperCase()} ${path}`;
  const before = new Map(parametersOf(published, path, method).map((p) => [id(p), p]));
  const after = new Map(parametersOf(current, path, method).map((p) => [id(p), p]));
  for (const [key, old] of before) {
    const now = after.get(key);
    const at = `${where} parameter ${key}`;
    if (now === undefined) {
      differ.report(at, 'parameter removed');
      continue;
    }
    if (now.required === true && old.required !== true)
      differ.report(at, 'parameter newly required');
    differ.compare(old.schema, now.schema, at, 'request');
  }
  for (const [key, now] of after) {
    if (!before.has(key) && now.required === true) {
      differ.report(`${where} parameter ${key}`, 'new parameter is required');
    }
  }
}

function compareRequestBody(old: JsonObject, now: JsonObject, where: string, differ: SchemaDiff) {
  const oldBody = differ.resolvePublished(old.requestBody);
  const newBody = differ.resolveCurrent(now.requestBody);
  if (!isObject(oldBody)) {
    if (isObject(newBody) && newBody.required === true) {
      differ.report(`${where} request body`, 'new request body is required');
    }
    return;
  }
  if (!isObject(newBody)) {
    differ.report(`${where} request body`, 'request body removed');
    return;
  }
  if (newBody.required === true && oldBody.required !== true) {
    differ.report(`${where} request body`, 'request body newly required');
  }
  compareContent(oldBody.content, newBody.content, `${where} request body`, 'request', differ);
}

function compareResponses(old: JsonObject, now: JsonObject, where: string, differ: SchemaDiff) {
  const oldResponses = isObject(old.responses) ? old.responses : {};
  const newResponses = isObject(now.responses) ? now.responses : {};
  for (const [status, raw] of Object.entries(oldResponses)) {
    const at = `${where} response ${status}`;
    if (!(status in newResponses)) {
      differ.report(at, 'response removed');
      continue;
    }
    const oldResponse = differ.resolvePublished(raw);
    const newResponse = differ.resolveCurrent(newResponses[status]);
    if (isObject(oldResponse) && isObject(newResponse)) {
      compareContent(oldResponse.content, newResponse.content, at, 'response', differ);
    }
  }
}

function compareContent(old: unknown, now: unknown, where: string, side: Side, differ: SchemaDiff) {
  if (!isObject(old)) return;
  const current = isObject(now) ? now : {};
  for (const [mediaType, media] of Object.entries(old)) {
    const newMedia = current[mediaType];
    if (!isObject(newMedia)) {
      differ.report(`${where} ${mediaType}`, 'media type removed');
      continue;
    }
    if (isObject(media))
      differ.compare(media.schema, newMedia.schema, `${where} ${mediaType}`, side);
  }
}

function id(parameter: Parameter): string {
  return `${parameter.in}:${parameter.name}`;
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

class SchemaDiff {
  readonly #published: OpenApiDoc;
  readonly #current: OpenApiDoc;
  readonly #breaks: Break[];
  readonly #inProgress = new Set<string>();

  constructor(published: OpenApiDoc, current: OpenApiDoc, breaks: Break[]) {
    this.#published = published;
    this.#current = current;
    this.#breaks = breaks;
  }

  report(where: string, what: string): void {
    this.#breaks.push({ where, what });
  }

  resolvePublished(value: unknown): unknown {
    return deref(this.#published, value);
  }

  resolveCurrent(value: unknown): unknown {
    return deref(this.#current, value);
  }

  /** Compares two schemas, reporting into the shared list. */
  compare(old: unknown, now: unknown, where: string, side: Side): void {
    for (const found of this.#diff(old, now, where, side)) this.#breaks.push(found);
  }

  #diff(oldRaw: unknown, newRaw: unknown, where: string, side: Side): Break[] {
    if (oldRaw === undefined) return [];
    if (newRaw === undefined) return [{ where, what: 'schema removed' }];
    // A recursive schema meets the same pair of $refs again inside itself: compared once.
    const guard = `${side}|${refOf(oldRaw)}|${refOf(newRaw)}`;
    if (refOf(oldRaw) !== '' && this.#inProgress.has(guard)) return [];
    this.#inProgress.add(guard);
    try {
      const old = flatten(this.#published, oldRaw);
      const now = flatten(this.#current, newRaw);
      return this.#diffResolved(old, now, where, side);
    } finally {
      this.#inProgress.delete(guard);
    }
  }

  #diffResolved(old: JsonObject, now: JsonObject, where: string, side: Side): Break[] {
    const oldBranches = branchesOf(old);
    const newBranches = branchesOf(now);
    if (oldBranches !== null) {
      // Every alternative that was allowed must still be allowed by some alternative.
      return oldBranches.flatMap((branch, i) =>
        this.#bestMatch(branch, newBranches ?? [now], `${where} (alternative ${i + 1})`, side),
      );
    }
    if (newBranches !== null) return this.#bestMatch(old, newBranches, where, side);

    const breaks: Break[] = [];
    const oldTypes = typesOf(old);
    const newTypes = typesOf(now);
    if (newTypes !== null) {
      const lost = oldTypes === null ? ['any'] : oldTypes.filter((t) => !allowsType(newTypes, t));
      if (lost.length > 0)
        breaks.push({ where, what: `type narrowed: ${lost.join(', ')} no longer allowed` });
    }
    const oldEnum = enumOf(old);
    const newEnum = enumOf(now);
    if (newEnum !== null) {
      const lost =
        oldEnum === null ? ['any value'] : oldEnum.filter((v) => !newEnum.some((n) => same(n, v)));
      if (lost.length > 0)
        breaks.push({
          where,
          what: `enum narrowed: ${lost.map((v) => JSON.stringify(v)).join(', ')} removed`,
        });
    }
    if (side === 'request') breaks.push(...tightenedBounds(old, now, where));

    const oldProps = isObject(old.properties) ? old.properties : {};
    const newProps = isObject(now.properties) ? now.properties : {};
    for (const [name, schema] of Object.entries(oldProps)) {
      if (!(name in newProps)) {
        breaks.push({ where: `${where}.${name}`, what: 'property removed' });
        continue;
      }
      breaks.push(...this.#diff(schema, newProps[name], `${where}.${name}`, side));
    }
    const oldRequired = stringsOf(old.required);
    const newRequired = stringsOf(now.required);
    if (side === 'request') {
      for (const name of newRequired.filter((n) => !oldRequired.includes(n))) {
        breaks.push({ where: `${where}.${name}`, what: 'property newly required' });
      }
      if (now.additionalProperties === false && old.additionalProperties !== false) {
        breaks.push({ where, what: 'additional properties no longer accepted' });
      }
    } else {
      for (const name of oldRequired.filter((n) => !newRequired.includes(n))) {
        breaks.push({ where: `${where}.${name}`, what: 'property no longer always returned' });
      }
      if (old.additionalProperties === false && now.additionalProperties !== false) {
        breaks.push({
          where,
          what: 'closed object opened: fields beyond the published ones may be returned',
        });
      }
    }
    if (old.items !== undefined)
      breaks.push(...this.#diff(old.items, now.items ?? {}, `${where}[]`, side));
    return breaks;
  }

  /** The breaks of the alternative that keeps `old` best (none when one keeps it whole). */
  #bestMatch(old: unknown, alternatives: unknown[], where: string, side: Side): Break[] {
    let best: Break[] | null = null;
    for (const alternative of alternatives) {
      const breaks = this.#diff(old, alternative, where, side);
      if (breaks.length === 0) return [];
      if (best === null || breaks.length < best.length) best = breaks;
    }
    return best ?? [{ where, what: 'no alternative left' }];
  }
}

function refOf(value: unknown): string {
  return isObject(value) && typeof value.$ref === 'string' ? value.$ref : '';
}

/** Resolves `$ref`s and merges `allOf` parts into one schema. */
function flatten(doc: OpenApiDoc, raw: unknown): JsonObject {
  const schema = deref(doc, raw);
  if (!isObject(schema)) return {};
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  const merged: JsonObject = { ...rest };
  const properties: JsonObject = isObject(rest.properties) ? { ...rest.properties } : {};
  const required = new Set(stringsOf(rest.required));
  for (const part of allOf.map((p) => flatten(doc, p))) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isObject(value)) Object.assign(properties, value);
      else if (key === 'required') for (const name of stringsOf(value)) required.add(name);
      else if (!(key in merged)) merged[key] = value;
    }
  }
  merged.properties = properties;
  merged.required = [...required];
  return merged;
}

function branchesOf(schema: JsonObject): unknown[] | null {
  if (Array.isArray(schema.anyOf)) return schema.anyOf;
  if (Array.isArray(schema.oneOf)) return schema.oneOf;
  return null;
}

function typesOf(schema: JsonObject): string[] | null {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type))
    return schema.type.filter((t): t is string => typeof t === 'string');
  if ('const' in schema) return [jsonType(schema.const)];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  return null;
}

function allowsType(types: string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function enumOf(schema: JsonObject): unknown[] | null {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : null;
}

function tightenedBounds(old: JsonObject, now: JsonObject, where: string): Break[] {
  const breaks: Break[] = [];
  for (const key of LOWER_BOUNDS) {
    const a = old[key];
    const b = now[key];
    if (typeof b === 'number' && (typeof a !== 'number' || b > a)) {
      breaks.push({ where, what: `${key} tightened from ${String(a ?? 'none')} to ${b}` });
    }
  }
  for (const key of UPPER_BOUNDS) {
    const a = old[key];
    const b = now[key];
    if (typeof b === 'number' && (typeof a !== 'number' || b < a)) {
      breaks.push({ where, what: `${key} tightened from ${String(a ?? 'none')} to ${b}` });
    }
  }
  for (const key of ['pattern', 'format']) {
    if (now[key] !== undefined && now[key] !== old[key]) {
      breaks.push({
        where,
        what: `${key} changed from ${String(old[key] ?? 'none')} to ${String(now[key])}`,
      });
    }
  }
  return breaks;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
