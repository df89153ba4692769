import { toQuery } from '../../contract/suite/client.ts';
import {
  ALL_OPERATIONS,
  fullFlag,
  GRADING,
  LISTS,
  pathOf,
  SCORING,
} from '../../contract/suite/operations.ts';
import type { Target } from '../../contract/suite/target.ts';

/** A request a client sends, as a path with its query and, for POST, a JSON body. */
export type Sent = { method: 'GET' | 'POST' | 'DELETE'; path: string; body?: string };

const get = (path: string, params: Record<string, unknown>): Sent => ({
  method: 'GET',
  path: `${path}?${toQuery(params)}`,
});
const post = (path: string, params: Record<string, unknown>): Sent => ({
  method: 'POST',
  path,
  body: JSON.stringify(params),
});

/** The request that empties every list: a keyword nothing holds. */
const NOWHERE = ['zq9x7hrmocknothing'];

/** Lists as JSON-encoded strings, as some SDKs put them in a POST body (the contract allows it). */
const encodedLists = (params: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? JSON.stringify(v) : v]),
  );

/**
 * The keys named again until the list passes 32 KB (each takes over 40 bytes): a search over as
 * many sources as a big app has, which only a POST carries.
 */
const manyTimes = (keys: unknown) => {
  const list = keys as string[];
  return Array.from({ length: Math.ceil((32 * 1024) / 40 / list.length) + 1 }, () => list).flat();
};

/**
 * Traffic a well-behaved client sends, in which each fault of test/mutants/ that one or two
 * exchanges show would show: both grading flags and spellings, request orders, pages (one past
 * the last, an empty one, the one page a threshold leaves), explicit orders, thresholds, GET and
 * POST twins (lists as arrays and as JSON-encoded strings), a POST too long for a URL, a repeat,
 * and one request the mock refuses with a 400 (a valid request of the contract, an invalid value).
 */
export function cleanTraffic(t: Target): Sent[] {
  return cleanTrafficParts(t).flat();
}

/** `cleanTraffic` in its parts, one an operation and what it is asked, in the order sent. */
export function cleanTrafficParts(t: Target): Sent[][] {
  const parts: Sent[][] = [];
  for (const op of GRADING) {
    const params = op.params(t);
    const ids = op.list === 'profiles' ? 'profile_ids' : 'job_ids';
    const path = pathOf(op, t);
    parts.push([
      get(path, params),
      get(path, { ...params, [fullFlag(op)]: 'true' }),
      get(path, { ...params, [fullFlag(op)]: 'false' }),
      get(path, { ...params, [ids]: [...(params[ids] as unknown[])].reverse() }),
      get(path.replace(`/${op.list}/`, `/${op.list.slice(0, -1)}/`), params),
    ]);
  }
  for (const op of LISTS) {
    const params = op.params(t);
    parts.push([
      get(op.path, { ...params, limit: 7 }),
      post(op.path, encodedLists({ ...params, limit: 7 })),
      get(op.path, { ...params, limit: 7, page: 2 }),
      post(op.path, { ...params, limit: 7, page: 2 }),
      get(op.path, { ...params, limit: 7, page: 9999 }),
      get(op.path, { ...params, limit: 20, sort_by: 'created_at', order_by: 'asc' }),
      get(op.path, { ...params, text_keywords: NOWHERE }),
    ]);
  }
  for (const op of SCORING) {
    const params = op.params(t);
    parts.push([
      get(op.path, { ...params, limit: 30, sort_by: 'scoring', order_by: 'asc' }),
      get(op.path, { ...params, limit: 100, score_threshold: 0.5 }),
    ]);
  }
  parts.push(ALL_OPERATIONS.map((op) => get(pathOf(op, t), op.params(t))));
  const [search] = LISTS;
  if (search === undefined) return parts;
  const long = { ...search.params(t), source_keys: manyTimes(search.params(t).source_keys) };
  parts.push([post(search.path, long), get(search.path, { ...search.params(t), limit: 0 })]);
  return parts;
}

/**
 * A client's mistakes: a method the path lacks (grading POSTed as searching is, a search
 * DELETEd). The proxy reports each as the client's (CLIENT) and judges the answer all the same.
 */
export function wrongMethods(t: Target): Sent[] {
  const [grading] = GRADING;
  const [search] = LISTS;
  if (grading === undefined || search === undefined) return [];
  return [
    post(pathOf(grading, t), grading.params(t)),
    { method: 'DELETE', path: get(search.path, search.params(t)).path },
  ];
}

/** Sends one request to a base URL; its status and body bytes. */
export async function send(
  base: string,
  request: Sent,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; type: string | null }> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: {
      ...headers,
      ...(request.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(request.body !== undefined && { body: request.body }),
  });
  return {
    status: response.status,
    body: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type'),
  };
}
