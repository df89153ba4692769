import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deref, isObject, type OpenApiDoc } from './openapi.ts';

export type Validation = { ok: true } | { ok: false; errors: string[] };

const DOC_ID = 'urn:hrmock:contract';

/**
 * Validates JSON bodies against the schemas an OpenAPI 3.1 document gives an operation.
 * One compiled validator per (path, method, status), built on first use.
 */
export class ContractValidator {
  readonly #doc: OpenApiDoc;
  readonly #ajv: Ajv2020;
  readonly #cache = new Map<string, ValidateFunction | null>();

  constructor(doc: OpenApiDoc) {
    this.#doc = doc;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(this.#ajv);
    this.#ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  /** Validates a response body; a status the operation does not document is itself a failure. */
  validateResponse(path: string, method: string, status: number, body: unknown): Validation {
    const key = `${method} ${path} ${status}`;
    let validate = this.#cache.get(key);
    if (validate === undefined) {
      validate = this.#compileResponse(path, method, status);
      this.#cache.set(key, validate);
    }
    if (validate === null) {
      return {
        ok: false,
        errors: [`${method.toUpperCase()} ${path} does not document status ${status}`],
      };
    }
    return run(validate, body);
  }

  /** Validates a body against a named component schema (`#/components/schemas/NAME`). */
  validateSchema(name: string, value: unknown): Validation {
    const key = `schema ${name}`;
    let validate = this.#cache.get(key);
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${name}` });
      this.#cache.set(key, validate);
    }
    return run(validate as ValidateFunction, value);
  }

  /** Validates a value against a schema found at a JSON pointer of the document. */
  validateAt(jsonPointer: string, value: unknown): Validation {
    const key = `pointer ${jsonPointer}`;
    let validate = this.#cache.get(key);
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: `${DOC_ID}${jsonPointer}` });
      this.#cache.set(key, validate);
    }
    return run(validate as ValidateFunction, value);
  }

  #compileResponse(path: string, method: string, status: number): ValidateFunction | null {
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
    return this.#ajv.compile(withRefsInto(schema) as object);
  }
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

function run(validate: ValidateFunction, value: unknown): Validation {
  if (validate(value)) return { ok: true };
  return { ok: false, errors: (validate.errors ?? []).map(describe) };
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  return `${where} ${error.message ?? 'is invalid'}${error.keyword === 'additionalProperties' ? `: ${String(error.params.additionalProperty)}` : ''}`;
}
