import { deref, isObject, type OpenApiDoc, type Parameter, parametersOf } from './openapi.ts';
import { SchemaDiff } from './schema-diff.ts';

/**
 * A response alternative that a client only gets by sending a parameter the published contract
 * did not have. A client written against that contract never sends it, so its answers stay what
 * was published (OLD-CLIENT checks that against the server): for it the alternative does not
 * exist. Reviewed by hand, one entry per alternative; nothing is inferred.
 */
export type OptIn = {
  path: string;
  method: string;
  /** The new, optional parameter that opts in. */
  parameter: string;
  /** Property names from the 200 response body down to the list whose items gained it. */
  items: string[];
  /** The `$ref` of the alternative it adds. */
  alternative: string;
};

export const OPT_INS: OptIn[] = [
  {
    path: '/profiles/grading',
    method: 'get',
    parameter: 'return_profile',
    items: ['data', 'profiles'],
    alternative: '#/components/schemas/Profile',
  },
  {
    path: '/jobs/grading',
    method: 'get',
    parameter: 'return_job',
    items: ['data', 'jobs'],
    alternative: '#/components/schemas/Job',
  },
];

/**
 * The current contract as a client of `published` meets it: a copy without the alternatives that
 * only a parameter new since `published` opts into. An opt-in applies only while its parameter is
 * new and optional and every published alternative is still offered beside it; otherwise its
 * alternative is judged like any other.
 */
export function asPublishedClientSees(
  published: OpenApiDoc,
  current: OpenApiDoc,
  optIns: OptIn[] = OPT_INS,
): OpenApiDoc {
  const copy = structuredClone(current);
  const differ = new SchemaDiff(published, current);
  for (const optIn of optIns) {
    const named = (p: Parameter) => p.in === 'query' && p.name === optIn.parameter;
    const before = parametersOf(published, optIn.path, optIn.method).find(named);
    const now = parametersOf(copy, optIn.path, optIn.method).find(named);
    if (before !== undefined || now === undefined || now.required === true) continue;
    const branches = alternativesOf(copy, optIn);
    const at = branches?.findIndex((b) => isObject(b) && b.$ref === optIn.alternative) ?? -1;
    if (branches === null || at < 0) continue;
    const others = branches.filter((_, i) => i !== at);
    // Still offered: the same schema, or one that differs from it in one direction only.
    const offered = (old: unknown, other: unknown) =>
      (isObject(old) && isObject(other) && old.$ref !== undefined && old.$ref === other.$ref) ||
      differ.compare(old, other, '', 'response').length === 0 ||
      differ.compare(old, other, '', 'request').length === 0;
    const kept = (alternativesOf(published, optIn) ?? []).every((old) =>
      others.some((other) => offered(old, other)),
    );
    if (kept) branches.splice(at, 1);
  }
  return copy;
}

/** The alternatives of the items of the list an opt-in names, through `$ref`s and `allOf`. */
function alternativesOf(doc: OpenApiDoc, optIn: OptIn): unknown[] | null {
  const operation = doc.paths[optIn.path]?.[optIn.method];
  const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : {};
  const response = deref(doc, responses['200']);
  const content = isObject(response) && isObject(response.content) ? response.content : {};
  const media = content['application/json'];
  let schema: unknown = isObject(media) ? media.schema : undefined;
  for (const name of optIn.items) schema = propertyOf(doc, schema, name);
  const list = deref(doc, schema);
  const items = isObject(list) ? deref(doc, list.items) : undefined;
  if (!isObject(items)) return null;
  if (Array.isArray(items.anyOf)) return items.anyOf;
  return Array.isArray(items.oneOf) ? items.oneOf : null;
}

function propertyOf(doc: OpenApiDoc, raw: unknown, name: string): unknown {
  const schema = deref(doc, raw);
  if (!isObject(schema)) return undefined;
  if (isObject(schema.properties) && name in schema.properties) return schema.properties[name];
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const found = propertyOf(doc, part, name);
    if (found !== undefined) return found;
  }
  return undefined;
}
