import { deref, isObject, type OpenApiDoc, operations, parametersOf } from './openapi.ts';

/**
 * A target made of the contract's own examples: the keys its parameter, request-body and
 * answer examples name. `prism mock contract/openapi.yaml` answers those examples, so this is the
 * target that makes `hrmock check` run against it (`hrmock target --from-contract`).
 */
export function targetFromContract(doc: OpenApiDoc): Record<string, unknown> {
  const seen = examplesByPath(doc);
  const pick = (path: string, name: string): unknown => {
    const own = seen.get(path)?.get(name)?.[0];
    if (own !== undefined) return own;
    for (const values of seen.values()) {
      const value = values.get(name)?.[0];
      if (value !== undefined) return value;
    }
    return undefined;
  };
  // Batches: the ids a grading example sends, then the items its answer example shows.
  const ids = (path: string, name: string, listed: string, [container, key]: [string, string]) => {
    const found = new Map<string, Record<string, string>>();
    const add = (c: unknown, k: unknown) => {
      if (typeof c === 'string' && typeof k === 'string')
        found.set(`${c}/${k}`, { [container]: c, [key]: k });
    };
    for (const list of seen.get(path)?.get(name) ?? [])
      for (const item of Array.isArray(list) ? list : [])
        if (isObject(item)) add(item[container], item[key]);
    for (const item of seen.get(path)?.get(listed) ?? [])
      if (isObject(item)) add(item[container], item.key);
    return [...found.values()];
  };
  const profilesGrading = pick('/profiles/grading', 'algorithm_key');
  const profilesScoring = pick('/profiles/scoring', 'algorithm_key');
  const jobsGrading = pick('/jobs/grading', 'algorithm_key');
  const jobsScoring = pick('/jobs/scoring', 'algorithm_key');
  const scoring = (grading: unknown, scorer: unknown) =>
    scorer === undefined || scorer === grading ? {} : { scoring_algorithm_key: scorer };
  const profileIds = ids('/profiles/grading', 'profile_ids', 'profiles', [
    'source_key',
    'profile_key',
  ]);
  const jobIds = ids('/jobs/grading', 'job_ids', 'jobs', ['board_key', 'job_key']);
  return {
    headers: securityHeaders(doc),
    profiles: {
      grading_algorithm_key: profilesGrading,
      ...scoring(profilesGrading, profilesScoring),
      source_keys: pick('/profiles/searching', 'source_keys'),
      board_key: pick('/profiles/scoring', 'board_key') ?? jobIds[0]?.board_key,
      job_key: pick('/profiles/scoring', 'job_key') ?? jobIds[0]?.job_key,
      profile_ids: profileIds,
    },
    jobs: {
      grading_algorithm_key: jobsGrading,
      ...scoring(jobsGrading, jobsScoring),
      board_keys: pick('/jobs/searching', 'board_keys'),
      source_key: pick('/jobs/scoring', 'source_key') ?? profileIds[0]?.source_key,
      profile_key: pick('/jobs/scoring', 'profile_key') ?? profileIds[0]?.profile_key,
      job_ids: jobIds,
    },
  };
}

/** A placeholder for each header the contract's security asks for (Prism checks they are sent). */
const PLACEHOLDER = 'example-value';

/** The headers of the contract's `security` (apiKey schemes in a header), each a placeholder. */
function securityHeaders(doc: OpenApiDoc): Record<string, string> {
  const schemes = doc.components?.securitySchemes ?? {};
  const wanted = Array.isArray(doc.security) ? doc.security : [];
  const headers: Record<string, string> = {};
  for (const requirement of wanted)
    for (const name of isObject(requirement) ? Object.keys(requirement) : []) {
      const scheme = deref(doc, schemes[name]);
      if (isObject(scheme) && scheme.type === 'apiKey' && scheme.in === 'header')
        headers[String(scheme.name)] = PLACEHOLDER;
    }
  return headers;
}

/**
 * Every example value of the contract by path and name: parameters (a JSON-encoded one
 * decoded), request-body properties, and the items of answers' `data` lists (`profiles`, `jobs`,
 * one value each). Aliased paths (`x-alias-of`) are left out: they repeat their canonical path.
 */
function examplesByPath(doc: OpenApiDoc): Map<string, Map<string, unknown[]>> {
  const byPath = new Map<string, Map<string, unknown[]>>();
  for (const { path, method, operation } of operations(doc)) {
    if (typeof doc.paths[path]?.['x-alias-of'] === 'string') continue;
    const found = byPath.get(path) ?? new Map<string, unknown[]>();
    byPath.set(path, found);
    // A request body's example is a whole request: its values come before parameters' own.
    const add = (name: string, value: unknown, first = false) => {
      if (value === undefined || value === null) return;
      const list = found.get(name) ?? [];
      found.set(name, first ? [value, ...list] : [...list, value]);
    };
    for (const parameter of parametersOf(doc, path, method))
      for (const value of exampleValues(doc, parameter)) add(parameter.name, decoded(value));
    for (const body of exampleValues(doc, jsonMedia(doc, operation.requestBody)))
      if (isObject(body)) for (const [name, value] of Object.entries(body)) add(name, value, true);
    const ok = isObject(operation.responses) ? operation.responses['200'] : undefined;
    for (const answer of exampleValues(doc, jsonMedia(doc, ok))) {
      const data = isObject(answer) && isObject(answer.data) ? answer.data : {};
      for (const [name, list] of Object.entries(data))
        if (Array.isArray(list)) for (const item of list) add(name, item);
    }
  }
  return byPath;
}

/** The `application/json` media object of a request body or an answer, `$ref`s followed. */
function jsonMedia(doc: OpenApiDoc, holder: unknown): unknown {
  const resolved = deref(doc, holder);
  const content = isObject(resolved) && isObject(resolved.content) ? resolved.content : {};
  return content['application/json'];
}

/** `example` and the values of `examples` of a parameter or a media object. */
function exampleValues(doc: OpenApiDoc, holder: unknown): unknown[] {
  if (!isObject(holder)) return [];
  const named = isObject(holder.examples) ? Object.values(holder.examples) : [];
  return [
    holder.example,
    ...named.map((e) => (deref(doc, e) as { value?: unknown } | undefined)?.value),
  ].filter((v) => v !== undefined);
}

/** A JSON-encoded parameter example (`'["…"]'`) as its value; any other text as it is. */
function decoded(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
