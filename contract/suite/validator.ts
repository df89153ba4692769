import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deref, isObject, type OpenApiDoc, pointer } from './openapi.ts';

export type Validation = { ok: true } | { ok: false; errors: string[] };

const DOC_ID = 'urn:hrmock:contract';

/** A union's branch validated alone: Ajv's errors as they were, and as reported. */
type Tried = { raw: ErrorObject[]; reduced: ErrorObject[] };

/** One schema, compiled on first use to stop at the first error and, when asked, to find all. */
type Compiled = { schema: object | boolean; first?: ValidateFunction; all?: ValidateFunction };

/**
 * The most values (objects, arrays, scalars) an invalid body may hold to get all its errors, as
 * Ajv gathers them in time growing with their square; a larger one gets its first error (with
 * its closest branch's errors, where that is a union).
 */
export const ALL_ERRORS_VALUES = 2_000;

const validators = new WeakMap<OpenApiDoc, ContractValidator>();

/**
 * The one validator of a document (by identity), its compiled schemas reused by every run that
 * reads the same document.
 */
export function validatorOf(doc: OpenApiDoc): ContractValidator {
  let validator = validators.get(doc);
  if (validator === undefined) {
    validator = new ContractValidator(doc);
    validators.set(doc, validator);
  }
  return validator;
}

function withDocument(ajv: Ajv2020, doc: OpenApiDoc): Ajv2020 {
  addFormats.default(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  return ajv;
}

/**
 * Validates JSON bodies against the schemas an OpenAPI 3.1 document gives an operation.
 * One compiled validator per (path, method, status), built on first use. A failed anyOf/oneOf
 * reports the errors of its closest branch only (`#closest`), not those of every branch.
 */
export class ContractValidator {
  readonly #doc: OpenApiDoc;
  #ajvMade: Ajv2020 | undefined;
  #firstErrorMade: Ajv2020 | undefined;
  readonly #cache = new Map<string, Compiled | null>();
  readonly #branches = new WeakMap<object, ValidateFunction>();

  constructor(doc: OpenApiDoc) {
    this.#doc = doc;
  }

  /** Made on first use: adding the document to Ajv takes ~100 ms, which a judge may never need. */
  get #ajv(): Ajv2020 {
    // verbose: a union's error carries its branches, the schema around it and the data.
    this.#ajvMade ??= withDocument(
      new Ajv2020({ strict: false, allErrors: true, validateFormats: true, verbose: true }),
      this.#doc,
    );
    return this.#ajvMade;
  }

  get #firstError(): Ajv2020 {
    this.#firstErrorMade ??= withDocument(
      new Ajv2020({ strict: false, validateFormats: true, verbose: true }),
      this.#doc,
    );
    return this.#firstErrorMade;
  }

  /** Validates a response body; a status the operation does not document is itself a failure. */
  validateResponse(path: string, method: string, status: number, body: unknown): Validation {
    const key = `${method} ${path} ${status}`;
    let validate = this.#cache.get(key);
    if (validate === undefined) {
      const schema = this.#responseSchema(path, method, status);
      validate = schema === null ? null : { schema };
      this.#cache.set(key, validate);
    }
    if (validate === null) {
      return {
        ok: false,
        errors: [`${method.toUpperCase()} ${path} does not document status ${status}`],
      };
    }
    return this.#run(validate, body);
  }

  /** Validates a body against a named component schema (`#/components/schemas/NAME`). */
  validateSchema(name: string, value: unknown): Validation {
    const key = `schema ${name}`;
    let validate = this.#cache.get(key);
    if (validate === undefined) {
      validate = { schema: { $ref: `${DOC_ID}#/components/schemas/${name}` } };
      this.#cache.set(key, validate);
    }
    return this.#run(validate as Compiled, value);
  }

  /** Validates a value against a schema found at a JSON pointer of the document. */
  validateAt(jsonPointer: string, value: unknown): Validation {
    const key = `pointer ${jsonPointer}`;
    let validate = this.#cache.get(key);
    if (validate === undefined) {
      validate = { schema: { $ref: `${DOC_ID}${jsonPointer}` } };
      this.#cache.set(key, validate);
    }
    return this.#run(validate as Compiled, value);
  }

  #responseSchema(path: string, method: string, status: number): object | null {
    const operation = this.#doc.paths[path]?.[method];
    if (!isObject(operation) || !isObject(operation.responses)) return null;
    const responses = operation.responses;
    const raw =
      responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (raw === undefined) return null;
    const response = deref(this.#doc, raw);
    const media =
      isObject(response) && isObject(response.content)
        ? response.content['application/json']
        : undefined;
    const schema = isObject(media) ? media.schema : undefined;
    if (schema === undefined) return null;
    return withRefsInto(schema) as object;
  }

  /** Valid, or the errors: all of them for a body of at most ALL_ERRORS_VALUES, else the first. */
  #run(compiled: Compiled, value: unknown): Validation {
    compiled.first ??= this.#firstError.compile(compiled.schema);
    if (compiled.first(value)) return { ok: true };
    let errors = compiled.first.errors ?? [];
    if (small(value)) {
      compiled.all ??= this.#ajv.compile(compiled.schema);
      compiled.all(value);
      errors = compiled.all.errors ?? errors;
    }
    return { ok: false, errors: this.#closest(errors).map(describe) };
  }

  /**
   * Ajv's errors with each failed anyOf/oneOf replaced by the errors of its closest branch
   * (`closestBranch`), so the first error names the fix. A oneOf that more than one branch
   * matched keeps its own error: the ambiguity is the fault.
   */
  #closest(errors: ErrorObject[]): ErrorObject[] {
    const out = [...errors];
    // Backwards: a union's branch errors come just before it, nested unions' before theirs.
    for (let k = out.length - 1; k >= 0; k--) {
      const union = out[k] as ErrorObject;
      if (!isUnion(union)) continue;
      const tried = this.#tryBranches(union);
      if (tried === undefined) continue;
      const at = withoutBranchErrors(out, k, tried);
      const best =
        union.params.passingSchemas == null ? closestBranch(this.#doc, union, tried) : -1;
      out.splice(at, 1, ...(best < 0 ? [union] : (tried[best] as Tried).reduced));
      k = at;
    }
    return out;
  }

  /** Each branch of a failed union validated alone against its data; undefined if one cannot be. */
  #tryBranches(union: ErrorObject): Tried[] | undefined {
    if (!small(union.data)) return undefined;
    try {
      return (union.schema as unknown[]).map((branch) => {
        const validate = this.#branch(branch);
        validate(union.data);
        const raw = (validate.errors ?? []).map((e) => ({
          ...e,
          instancePath: `${union.instancePath}${e.instancePath}`,
        }));
        return { raw, reduced: this.#closest(raw) };
      });
    } catch {
      return undefined;
    }
  }

  #branch(branch: unknown): ValidateFunction {
    if (!isObject(branch)) return this.#ajv.compile(branch as boolean);
    let validate = this.#branches.get(branch);
    if (validate === undefined) {
      validate = this.#ajv.compile(withRefsInto(branch) as object);
      this.#branches.set(branch, validate);
    }
    return validate;
  }
}

/** Bodies already counted, as several validators judge the same body (ENV, OLD-CLIENT). */
const counted = new WeakMap<object, boolean>();

/** Whether a body holds at most ALL_ERRORS_VALUES values, itself included. */
function small(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  let verdict = counted.get(value);
  if (verdict === undefined) {
    verdict = valuesAtMost(value, ALL_ERRORS_VALUES);
    counted.set(value, verdict);
  }
  return verdict;
}

/** Whether a JSON value holds at most `max` values, itself included; counted without recursion. */
function valuesAtMost(value: unknown, max: number): boolean {
  const pending: unknown[] = [value];
  let count = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    if (++count > max) return false;
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      if (count + pending.length + next.length > max) return false;
      pending.push(...next);
      continue;
    }
    for (const key in next) {
      if (count + pending.length >= max) return false;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return true;
}

function isUnion(error: ErrorObject): boolean {
  return (error.keyword === 'anyOf' || error.keyword === 'oneOf') && Array.isArray(error.schema);
}

/** An error as far as its description goes (its schemaPath differs inside a `$ref`). */
function signature(e: ErrorObject): string {
  return `${e.instancePath}\u0000${e.keyword}\u0000${e.message}\u0000${JSON.stringify(e.params)}`;
}

/** Removes the branch errors found before the union at `k`; the union's new index. */
function withoutBranchErrors(out: ErrorObject[], k: number, tried: Tried[]): number {
  const pending = new Map<string, number>();
  for (const e of tried.flatMap((t) => t.raw))
    pending.set(signature(e), (pending.get(signature(e)) ?? 0) + 1);
  let at = k;
  for (let j = k - 1; j >= 0 && pending.size > 0; j--) {
    const key = signature(out[j] as ErrorObject);
    const left = pending.get(key);
    if (left === undefined) continue;
    if (left === 1) pending.delete(key);
    else pending.set(key, left - 1);
    out.splice(j, 1);
    at--;
  }
  return at;
}

/**
 * The branch of a failed union that came closest: the one a discriminator names (OpenAPI's
 * `discriminator`, or a `const`/`enum` property the data matches), among the branches whose
 * type the data has, the fewest errors, then the deepest, then the first.
 */
function closestBranch(doc: OpenApiDoc, union: ErrorObject, tried: Tried[]): number {
  let candidates = tried.map((_, i) => i);
  const tagged = taggedBranches(doc, union.parentSchema, union.schema as unknown[], union.data);
  if (tagged.length > 0) candidates = tagged;
  const typed = candidates.filter(
    (i) =>
      !tried[i]?.raw.some((e) => e.keyword === 'type' && e.instancePath === union.instancePath),
  );
  if (typed.length > 0) candidates = typed;
  const depth = (t: Tried) =>
    Math.max(0, ...t.reduced.map((e) => e.instancePath.split('/').length - 1));
  return candidates.reduce((best, i) => {
    const a = tried[i] as Tried;
    const b = tried[best] as Tried;
    if (a.reduced.length !== b.reduced.length)
      return a.reduced.length < b.reduced.length ? i : best;
    return depth(a) > depth(b) ? i : best;
  });
}

/** The branches the data's tag picks: by `discriminator`, else by a `const`/`enum` property. */
function taggedBranches(
  doc: OpenApiDoc,
  parent: unknown,
  branches: unknown[],
  data: unknown,
): number[] {
  if (!isObject(data)) return [];
  const discriminator = isObject(parent) ? parent.discriminator : undefined;
  if (isObject(discriminator) && typeof discriminator.propertyName === 'string') {
    const value = data[discriminator.propertyName];
    const mapping = isObject(discriminator.mapping) ? discriminator.mapping : {};
    const named = typeof value === 'string' ? (mapping[value] ?? value) : undefined;
    const target =
      typeof named === 'string' && !named.includes('#') ? `#/components/schemas/${named}` : named;
    const byRef = branches.findIndex((b) => isObject(b) && local(b.$ref) === target);
    if (byRef >= 0) return [byRef];
  }
  return branches.flatMap((branch, i) => (tagMatches(doc, branch, data) ? [i] : []));
}

/** Whether a property of the branch with a `const` or `enum` holds the data's value. */
function tagMatches(doc: OpenApiDoc, branch: unknown, data: Record<string, unknown>): boolean {
  const schema = resolved(doc, branch);
  if (!isObject(schema)) return false;
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
  return parts.some((part) => {
    const properties = resolved(doc, part);
    if (!isObject(properties) || !isObject(properties.properties)) return false;
    return Object.entries(properties.properties).some(([name, raw]) => {
      const property = resolved(doc, raw);
      if (!isObject(property) || !(name in data)) return false;
      if ('const' in property) return property.const === data[name];
      return Array.isArray(property.enum) && property.enum.includes(data[name]);
    });
  });
}

/** A `$ref` of the document, written as the document writes it (`#/...`). */
function local(ref: unknown): unknown {
  return typeof ref === 'string' && ref.startsWith(DOC_ID) ? ref.slice(DOC_ID.length) : ref;
}

/** Follows `$ref`s, whether local or into the registered document; undefined if one leads out. */
function resolved(doc: OpenApiDoc, schema: unknown): unknown {
  let current = schema;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = local(current.$ref) as string;
    if (hops === 32 || !ref.startsWith('#/')) return undefined;
    current = pointer(doc, ref);
  }
  return current;
}

/** Rewrites local `#/...` refs so they resolve inside the registered document. */
function withRefsInto(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withRefsInto);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `${DOC_ID}${value}`
        : withRefsInto(value);
  }
  return out;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  return `${where} ${error.message ?? 'is invalid'}${error.keyword === 'additionalProperties' ? `: ${String(error.params.additionalProperty)}` : ''}`;
}
