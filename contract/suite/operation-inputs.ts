import { deref, isObject, type OpenApiDoc, operations, parametersOf } from './openapi.ts';

/** A parameter an operation documents: a query parameter, or a property of its JSON body. */
export type Input = { name: string; schema: unknown; required: boolean };

/** One operation of the contract as coverage and generation see it. */
export type ContractOperation = {
  operationId: string;
  /** Upper case, as sent: `GET`, `POST`. */
  method: string;
  path: string;
  /** The parameters it documents: query parameters for GET, body properties for POST. */
  inputs: Input[];
  /** The response statuses it documents, as written (`"200"`, `"400"`). */
  statuses: string[];
};

/** Every operation of the contract, in the document's order. */
export function contractOperations(doc: OpenApiDoc): ContractOperation[] {
  return operations(doc).map(({ path, method, operation }) => {
    const query: Input[] = parametersOf(doc, path, method)
      .filter((p) => p.in === 'query')
      .map((p) => ({ name: p.name, schema: p.schema, required: p.required === true }));
    const responses = isObject(operation.responses) ? Object.keys(operation.responses) : [];
    return {
      operationId: String(operation.operationId ?? `${method} ${path}`),
      method: method.toUpperCase(),
      path,
      inputs: [...query, ...bodyInputs(doc, operation.requestBody)],
      statuses: responses.filter((s) => /^\d{3}$/.test(s)),
    };
  });
}

/** The properties of a JSON request body, through `$ref` and `allOf`. */
function bodyInputs(doc: OpenApiDoc, requestBody: unknown): Input[] {
  const body = deref(doc, requestBody);
  if (!isObject(body) || !isObject(body.content)) return [];
  const media = body.content['application/json'];
  if (!isObject(media)) return [];
  const found = new Map<string, Input>();
  const required = new Set<string>();
  const visit = (raw: unknown, depth: number) => {
    const schema = deref(doc, raw);
    if (!isObject(schema) || depth > 8) return;
    if (Array.isArray(schema.allOf)) for (const part of schema.allOf) visit(part, depth + 1);
    if (Array.isArray(schema.required))
      for (const name of schema.required) required.add(String(name));
    if (isObject(schema.properties))
      for (const [name, value] of Object.entries(schema.properties))
        found.set(name, { name, schema: value, required: false });
  };
  visit(media.schema, 0);
  return [...found.values()].map((input) => ({ ...input, required: required.has(input.name) }));
}
