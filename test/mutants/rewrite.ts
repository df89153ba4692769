import { asArray, at, isObject, type JsonObject } from '../../contract/suite/json-shape.ts';
import type { OpenApiDoc } from '../../contract/suite/openapi.ts';
import type { ProfilesGrading, ProfilesScoring, ProfilesSearching } from '../support/answers.ts';
import { obj } from '../support/json-reads.ts';

export type Fetch = (request: Request) => Promise<Response>;

/**
 * A deliberately broken implementation: the real mock with exactly one contract behaviour
 * broken, by rewriting its requests or answers from outside (or, for ADDITIVE, its document).
 */
export type Mutant = {
  name: string;
  /** The rule that must catch it. */
  rule: string;
  /**
   * What the rule's failure must read, matched against `expected …, got …`: the check meant for
   * this fault caught it, not another one that happened to fail first.
   */
  evidence: RegExp;
  /** Called once per run of the suite, so that any state it keeps starts afresh. */
  wrap?: (fetch: Fetch) => Fetch;
  contract?: (doc: JsonObject) => void;
};

export const isGrading = (url: URL) => url.pathname.endsWith('/grading');
export const isScoring = (url: URL) => url.pathname.endsWith('/scoring');
export const isList = (url: URL) => /\/(searching|scoring)$/.test(url.pathname);

/** Rewrites the query string of GET requests. */
export function editQuery(edit: (url: URL) => void): (fetch: Fetch) => Fetch {
  return (fetch) => async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET') return fetch(request);
    edit(url);
    return fetch(new Request(url, request));
  };
}

/** Rewrites the JSON answer of matching requests. */
export function editAnswer(
  when: (url: URL, request: Request) => boolean,
  edit: (body: JsonObject, url: URL) => void,
): (fetch: Fetch) => Fetch {
  return (fetch) => async (request) => {
    const url = new URL(request.url);
    const response = await fetch(request);
    if (!when(url, request)) return response;
    return answer(await response.json(), response, (body) => edit(body, url));
  };
}

/**
 * A JSON answer made from `body` after `edit` (which needs an object: throws on any other
 * value), with the status and headers of `like`.
 */
export function answer(body: unknown, like: Response, edit?: (body: JsonObject) => void): Response {
  edit?.(obj(body));
  const headers = new Headers(like.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: like.status, headers });
}

/** The items of a list or grading answer, either side: the array itself, to edit in place. */
export function listOf(body: unknown): unknown[] {
  return asArray(at(body, 'data', 'profiles') ?? at(body, 'data', 'jobs')) ?? [];
}

/** The answer's `meta`, read as the contract types it, when it has one. */
export function metaOf(body: unknown): ProfilesSearching['meta'] | undefined {
  const meta = at(body, 'meta');
  return isObject(meta) ? (meta as ProfilesSearching['meta']) : undefined;
}

/** The answer's `data.predictions`, read as the contract types them, when it has them. */
export function predictionsOf(body: unknown): ProfilesScoring['data']['predictions'] | undefined {
  return asArray(at(body, 'data', 'predictions')) as
    | ProfilesScoring['data']['predictions']
    | undefined;
}

/** The answer's `data.scores`, read as the contract types them, when it has them. */
export function scoresOf(body: unknown): ProfilesGrading['data']['scores'] | undefined {
  return asArray(at(body, 'data', 'scores')) as ProfilesGrading['data']['scores'] | undefined;
}

/** The text a mutant's `evidence` is matched against. */
export function said(evidence: { expected: string; got: string }): string {
  return `expected ${evidence.expected}, got ${evidence.got}`;
}

export function mutatedContract(mutant: Mutant, doc: OpenApiDoc): OpenApiDoc {
  const copy = structuredClone(doc);
  mutant.contract?.(copy);
  return copy;
}
