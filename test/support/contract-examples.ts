import { at, type JsonObject, toList } from '../../contract/suite/json-shape.ts';
import { deref, isObject, type OpenApiDoc, operations } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import type { StoreData } from '../../src/store/types.ts';

/** Every named example value of a document (components and inline), by name. */
function examples(doc: OpenApiDoc): JsonObject[] {
  const found: JsonObject[] = [];
  for (const example of Object.values(doc.components?.examples ?? {})) {
    const value = at(example, 'value');
    if (isObject(value)) found.push(value);
  }
  return found;
}

/**
 * The objects the contract's own examples show, as the data of a mock: each full profile and job
 * (those valid against Profile and Job), and a source and a board for each key they name. Served,
 * they make the keys of the contract's request examples exist.
 */
export function contractExampleData(doc: OpenApiDoc): StoreData {
  const validator = new ContractValidator(doc);
  const profiles = new Map<string, JsonObject>();
  const jobs = new Map<string, JsonObject>();
  for (const value of examples(doc)) {
    for (const item of toList(at(value, 'data', 'profiles'))) {
      if (isObject(item) && validator.validateSchema('Profile', item).ok)
        profiles.set(String(item.key), item);
    }
    for (const item of toList(at(value, 'data', 'jobs'))) {
      if (isObject(item) && validator.validateSchema('Job', item).ok)
        jobs.set(String(item.key), item);
    }
  }
  const containers = (keys: string[], name: string) =>
    [...new Set(keys)].map((key) => ({ key, name }));
  return {
    sources: containers(
      [...profiles.values()].map((p) => String(p.source_key)),
      "The contract's example source",
    ),
    boards: containers(
      [...jobs.values()].map((j) => String(j.board_key)),
      "The contract's example board",
    ),
    profiles: [...profiles.values()],
    jobs: [...jobs.values()],
  } as unknown as StoreData;
}

/** A request and the answer it documents, in Specmatic's external example format. */
export type SpecmaticExample = {
  name: string;
  'http-request': {
    method: string;
    path: string;
    query?: JsonObject;
    headers?: JsonObject;
    body?: unknown;
  };
  'http-response': { status: number; body: unknown };
};

/**
 * One Specmatic example per operation, made of the contract's own examples; each answer is the
 * operation's first 200 example (Specmatic checks the answer's schema, not its values). A POST
 * sends its request-body example. A searching or scoring GET sends the same parameters, less the
 * lists Specmatic cannot put in a query string (see `queryFriendly`). A grading GET grades the
 * pair of the contract's parameter examples (`profile_ids`, `job_ids`) in the single form
 * (`source_key` + `profile_key`, `board_key` + `job_key`), for the same reason.
 */
export function contractExamplesForSpecmatic(doc: OpenApiDoc): SpecmaticExample[] {
  const example = (name: string) => at(doc, 'components', 'parameters', name, 'example');
  const firstOf = (name: string): unknown => toList(JSON.parse(String(example(name) ?? '[]')))[0];
  const [profileId, jobId] = [firstOf('ProfileIds'), firstOf('JobIds')];
  const single = {
    algorithm_key: example('AlgorithmKey'),
    source_key: at(profileId, 'source_key'),
    profile_key: at(profileId, 'profile_key'),
    board_key: at(jobId, 'board_key'),
    job_key: at(jobId, 'job_key'),
  };
  const bodies = new Map<string, JsonObject>();
  for (const { path, method, operation } of operations(doc)) {
    const body = method === 'post' && firstExample(doc, deref(doc, operation.requestBody));
    if (body) bodies.set(path, body);
  }
  const found: SpecmaticExample[] = [];
  for (const { path, method, operation } of operations(doc)) {
    const answer = firstExample(doc, deref(doc, at(operation, 'responses', '200')));
    if (answer === undefined) continue;
    const name = `contract-${method}-${path.slice(1).replace('/', '-')}`;
    const response = { status: 200, body: answer };
    const body = bodies.get(path);
    let request: SpecmaticExample['http-request'] | undefined;
    if (method === 'post' && body !== undefined) {
      request = { method: 'POST', path, headers: { 'Content-Type': 'application/json' }, body };
    } else if (method === 'get' && body !== undefined) {
      request = { method: 'GET', path, query: queryFriendly(body) };
    } else if (method === 'get' && path.endsWith('/grading')) {
      request = { method: 'GET', path, query: single };
    }
    if (request !== undefined)
      found.push({ name, 'http-request': request, 'http-response': response });
  }
  return found;
}

/**
 * Parameters in a form Specmatic 2.55.1 sends as written: it splits a JSON-encoded list into
 * repeated values, refuses two or more of them ("Multiple values ... Expected a single value")
 * and sends a one-item list of objects as the bare object. Kept: scalars, objects, and lists of
 * one string (sent as one bare value, which the contract accepts as a one-item list).
 */
function queryFriendly(body: JsonObject): JsonObject {
  const query: JsonObject = {};
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) {
      if (value.length === 1 && typeof value[0] === 'string') query[name] = JSON.stringify(value);
    } else {
      query[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return query;
}

function firstExample(doc: OpenApiDoc, holder: unknown): JsonObject | undefined {
  const media = isObject(holder) && isObject(holder.content) && holder.content['application/json'];
  if (!isObject(media) || !isObject(media.examples)) return undefined;
  const [first] = Object.values(media.examples);
  const value = at(deref(doc, first), 'value');
  return isObject(value) ? value : undefined;
}
