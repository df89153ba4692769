import type { OpenApiDoc } from '../../contract/suite/openapi.ts';

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
  contract?: (doc: any) => void;
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
  edit: (body: any, url: URL) => void,
): (fetch: Fetch) => Fetch {
  return (fetch) => async (request) => {
    const url = new URL(request.url);
    const response = await fetch(request);
    if (!when(url, request)) return response;
    return answer(await response.json(), response, (body) => edit(body, url));
  };
}

/** A JSON answer made from `body` after `edit`, with the status and headers of `like`. */
export function answer(body: any, like: Response, edit: (body: any) => void = () => {}): Response {
  edit(body);
  const headers = new Headers(like.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: like.status, headers });
}

export function listOf(body: any): any[] {
  return body?.data?.profiles ?? body?.data?.jobs ?? [];
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
