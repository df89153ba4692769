import { deref, isObject, type JsonObject, type OpenApiDoc } from './openapi.ts';

/** One way the current contract breaks a published one. */
export type Break = { where: string; what: string };

/**
 * Where a schema sits decides which way a change breaks clients. A request schema must keep
 * accepting whatever it accepted: narrowing it breaks old clients. A response schema must keep
 * returning only what it promised: widening it breaks old clients, narrowing it does not.
 */
export type Side = 'request' | 'response';

/**
 * How a value travels: as JSON, or as the text of a query, path, header or cookie parameter,
 * where a `string` schema takes every number and boolean too (`limit=30` is the string "30").
 */
export type Wire = 'json' | 'text';

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

/**
 * Compares a published schema with its current version on one side of an exchange.
 *
 * Both sides ask one question, "does the wide schema allow everything the narrow one allows?":
 * for a request the wide one is the current schema (it must accept all that was accepted), for a
 * response it is the published one (it must cover all that may now be returned). Only the wording
 * of a break depends on the side. A removed property is a break on both sides: the contract
 * removes nothing, even where a schema without it would still allow it.
 */
export class SchemaDiff {
  readonly #published: OpenApiDoc;
  readonly #current: OpenApiDoc;
  readonly #inProgress = new Set<string>();

  constructor(published: OpenApiDoc, current: OpenApiDoc) {
    this.#published = published;
    this.#current = current;
  }

  resolvePublished(value: unknown): unknown {
    return deref(this.#published, value);
  }

  resolveCurrent(value: unknown): unknown {
    return deref(this.#current, value);
  }

  compare(old: unknown, now: unknown, where: string, side: Side, wire: Wire = 'json'): Break[] {
    if (old === undefined) return [];
    if (now === undefined) return [{ where, what: 'schema removed' }];
    // A recursive schema meets the same pair of $refs again inside itself: compared once.
    const guard = `${side}|${wire}|${refOf(old)}|${refOf(now)}`;
    if (refOf(old) !== '' && this.#inProgress.has(guard)) return [];
    this.#inProgress.add(guard);
    try {
      return this.#compareResolved(
        flatten(this.#published, old),
        flatten(this.#current, now),
        where,
        side,
        wire,
      );
    } finally {
      this.#inProgress.delete(guard);
    }
  }

  #compareResolved(
    old: JsonObject,
    now: JsonObject,
    where: string,
    side: Side,
    wire: Wire,
  ): Break[] {
    const oldBranches = branchesOf(this.#published, old);
    const newBranches = branchesOf(this.#current, now);
    if (oldBranches !== null || newBranches !== null) {
      return this.#compareAlternatives(old, now, oldBranches, newBranches, where, side, wire);
    }
    const [wide, narrow] = side === 'request' ? [now, old] : [old, now];
    const breaks = [
      ...typeBreaks(wide, narrow, where, side, wire),
      ...enumBreaks(wide, narrow, where, side),
      ...boundBreaks(wide, narrow, where, side),
      ...requiredBreaks(wide, narrow, where, side),
      ...this.#propertyBreaks(old, now, where, side, wire),
    ];
    if (old.items !== undefined || now.items !== undefined) {
      breaks.push(...this.compare(old.items ?? {}, now.items ?? {}, `${where}[]`, side, wire));
    }
    // A string that carries JSON (a list in a query string): its decoded value has a schema too.
    if (old.contentSchema !== undefined || now.contentSchema !== undefined) {
      breaks.push(
        ...this.compare(old.contentSchema ?? {}, now.contentSchema ?? {}, `${where} (JSON)`, side),
      );
    }
    return breaks;
  }

  /**
   * Every alternative the narrow side allows must be allowed by some alternative of the wide side:
   * in a request each published alternative must still be accepted; in a response each current
   * alternative must be one the published contract already promised.
   */
  #compareAlternatives(
    old: JsonObject,
    now: JsonObject,
    oldBranches: unknown[] | null,
    newBranches: unknown[] | null,
    where: string,
    side: Side,
    wire: Wire,
  ): Break[] {
    const olds = oldBranches ?? [old];
    const nows = newBranches ?? [now];
    const [kept, labelled] = side === 'request' ? [olds, oldBranches] : [nows, newBranches];
    return kept.flatMap((branch, i) => {
      const at = labelled === null ? where : `${where} (alternative ${i + 1})`;
      let best: Break[] | null = null;
      for (const other of side === 'request' ? nows : olds) {
        const breaks =
          side === 'request'
            ? this.compare(branch, other, at, side, wire)
            : this.compare(other, branch, at, side, wire);
        if (breaks.length === 0) return [];
        if (best === null || breaks.length < best.length) best = breaks;
      }
      return best ?? [{ where: at, what: 'no alternative left' }];
    });
  }

  #propertyBreaks(
    old: JsonObject,
    now: JsonObject,
    where: string,
    side: Side,
    wire: Wire,
  ): Break[] {
    const breaks: Break[] = [];
    const oldProps = isObject(old.properties) ? old.properties : {};
    const newProps = isObject(now.properties) ? now.properties : {};
    for (const [name, schema] of Object.entries(oldProps)) {
      if (!(name in newProps)) breaks.push({ where: `${where}.${name}`, what: 'property removed' });
      else breaks.push(...this.compare(schema, newProps[name], `${where}.${name}`, side, wire));
    }
    if (side === 'response') {
      // A new response property must fit what the published object allowed beyond its own.
      for (const [name, schema] of Object.entries(newProps)) {
        if (name in oldProps) continue;
        if (old.additionalProperties === false) {
          breaks.push({ where: `${where}.${name}`, what: 'property added to a closed object' });
        } else if (isObject(old.additionalProperties)) {
          breaks.push(...this.compare(old.additionalProperties, schema, `${where}.${name}`, side));
        }
      }
    }
    const [wide, narrow] = side === 'request' ? [now, old] : [old, now];
    if (wide.additionalProperties === false && narrow.additionalProperties !== false) {
      breaks.push({
        where,
        what:
          side === 'request'
            ? 'additional properties no longer accepted'
            : 'closed object opened: fields beyond the published ones may be returned',
      });
    } else if (isObject(old.additionalProperties) || isObject(now.additionalProperties)) {
      const schemaOf = (value: unknown) => (isObject(value) ? value : {});
      if (old.additionalProperties !== false && now.additionalProperties !== false) {
        breaks.push(
          ...this.compare(
            schemaOf(old.additionalProperties),
            schemaOf(now.additionalProperties),
            `${where}{}`,
            side,
          ),
        );
      }
    }
    return breaks;
  }
}

function typeBreaks(
  wide: JsonObject,
  narrow: JsonObject,
  where: string,
  side: Side,
  wire: Wire,
): Break[] {
  const wideTypes = typesOf(wide);
  if (wideTypes === null) return [];
  const narrowTypes = typesOf(narrow);
  const asText = (t: string) =>
    wire === 'text' && wideTypes.includes('string') && ['integer', 'number', 'boolean'].includes(t);
  const extra =
    narrowTypes === null
      ? ['any type']
      : narrowTypes.filter((t) => !allowsType(wideTypes, t) && !asText(t));
  if (extra.length === 0) return [];
  const what =
    side === 'request'
      ? `type narrowed: ${extra.join(', ')} no longer allowed`
      : `type widened: ${extra.join(', ')} may now be returned`;
  return [{ where, what }];
}

function enumBreaks(wide: JsonObject, narrow: JsonObject, where: string, side: Side): Break[] {
  const wideEnum = enumOf(wide);
  if (wideEnum === null) return [];
  const narrowEnum = enumOf(narrow);
  if (narrowEnum === null) {
    const what =
      side === 'request'
        ? `enum narrowed: only ${shownValues(wideEnum)} allowed now`
        : `enum widened: any value may now be returned, not only ${shownValues(wideEnum)}`;
    return [{ where, what }];
  }
  const extra = narrowEnum.filter((v) => !wideEnum.some((w) => same(v, w)));
  if (extra.length === 0) return [];
  const what =
    side === 'request'
      ? `enum narrowed: ${shownValues(extra)} removed`
      : `enum widened: ${shownValues(extra)} added`;
  return [{ where, what }];
}

/** Bounds, pattern, format, multipleOf and uniqueItems: each a limit the wide side sets. */
function boundBreaks(wide: JsonObject, narrow: JsonObject, where: string, side: Side): Break[] {
  const breaks: Break[] = [];
  const moved = (key: string, w: unknown, n: unknown) => {
    const what =
      side === 'request'
        ? `${key} tightened from ${String(n ?? 'none')} to ${String(w)}`
        : `${key} loosened from ${String(w)} to ${String(n ?? 'none')}`;
    breaks.push({ where, what });
  };
  for (const key of LOWER_BOUNDS) {
    const w = wide[key];
    const n = narrow[key];
    if (typeof w === 'number' && (typeof n !== 'number' || n < w)) moved(key, w, n);
  }
  for (const key of UPPER_BOUNDS) {
    const w = wide[key];
    const n = narrow[key];
    if (typeof w === 'number' && (typeof n !== 'number' || n > w)) moved(key, w, n);
  }
  const step = wide.multipleOf;
  const narrowStep = narrow.multipleOf;
  if (
    typeof step === 'number' &&
    (typeof narrowStep !== 'number' || !Number.isInteger(narrowStep / step))
  ) {
    moved('multipleOf', step, narrowStep);
  }
  if (wide.uniqueItems === true && narrow.uniqueItems !== true) {
    breaks.push({
      where,
      what: side === 'request' ? 'uniqueItems required now' : 'uniqueItems dropped',
    });
  }
  for (const key of ['pattern', 'format']) {
    const w = wide[key];
    const n = narrow[key];
    if (w === undefined || n === w) continue;
    if (side === 'request') {
      breaks.push({ where, what: `${key} changed from ${String(n ?? 'none')} to ${String(w)}` });
    } else {
      breaks.push({
        where,
        what:
          n === undefined
            ? `${key} dropped (was ${String(w)})`
            : `${key} changed from ${String(w)} to ${String(n)}`,
      });
    }
  }
  return breaks;
}

function requiredBreaks(wide: JsonObject, narrow: JsonObject, where: string, side: Side): Break[] {
  const narrowRequired = stringsOf(narrow.required);
  return stringsOf(wide.required)
    .filter((name) => !narrowRequired.includes(name))
    .map((name) => ({
      where: `${where}.${name}`,
      what: side === 'request' ? 'property newly required' : 'property no longer always returned',
    }));
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

/** Keywords that say nothing about what a value may be. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'default',
  'example',
  'examples',
  'deprecated',
]);

/**
 * The alternatives of an `anyOf`/`oneOf`, each with the keywords beside it: `{properties: P,
 * anyOf: [A, B]}` allows what `anyOf: [{P, A}, {P, B}]` allows (a point whose `lng` may be
 * spelled `lon` lists its properties once, next to the alternatives of what it requires).
 */
function branchesOf(doc: OpenApiDoc, schema: JsonObject): unknown[] | null {
  const list = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : null;
  if (list === null) return null;
  const { anyOf: _, oneOf: __, ...siblings } = schema;
  if (Object.keys(siblings).every((key) => ANNOTATIONS.has(key))) return list;
  return list.map((branch) => flatten(doc, { ...siblings, allOf: [branch] }));
}

function typesOf(schema: JsonObject): string[] | null {
  let types: string[] | null = null;
  if (typeof schema.type === 'string') types = [schema.type];
  else if (Array.isArray(schema.type))
    types = schema.type.filter((t): t is string => typeof t === 'string');
  else if ('const' in schema) types = [jsonType(schema.const)];
  else if (Array.isArray(schema.enum)) types = [...new Set(schema.enum.map(jsonType))];
  // OpenAPI 3.0 spells "or null" as a keyword.
  if (types !== null && schema.nullable === true && !types.includes('null')) types.push('null');
  return types;
}

function allowsType(types: string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

function enumOf(schema: JsonObject): unknown[] | null {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : null;
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

function shownValues(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
