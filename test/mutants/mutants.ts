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
  /** What the rule's evidence must say, so that it is caught for the broken behaviour. */
  evidence?: RegExp;
  wrap?: (fetch: Fetch) => Fetch;
  contract?: (doc: any) => void;
};

const isGrading = (url: URL) => url.pathname.endsWith('/grading');
const isScoring = (url: URL) => url.pathname.endsWith('/scoring');
const isList = (url: URL) => /\/(searching|scoring)$/.test(url.pathname);

/** Rewrites the query string of GET requests. */
function editQuery(edit: (url: URL) => void): (fetch: Fetch) => Fetch {
  return (fetch) => async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET') return fetch(request);
    edit(url);
    return fetch(new Request(url, request));
  };
}

/** Rewrites the JSON answer of matching requests. */
function editAnswer(
  when: (url: URL, request: Request) => boolean,
  edit: (body: any, url: URL) => void,
): (fetch: Fetch) => Fetch {
  return (fetch) => async (request) => {
    const url = new URL(request.url);
    const response = await fetch(request);
    if (!when(url, request)) return response;
    const body = await response.json();
    edit(body, url);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: response.status, headers });
  };
}

function listOf(body: any): any[] {
  return body?.data?.profiles ?? body?.data?.jobs ?? [];
}

let drift = 0;

export const MUTANTS: Mutant[] = [
  {
    name: 'error answers carry a code other than their status',
    rule: 'ENV',
    wrap: editAnswer(
      (_, r) => r.method === 'GET',
      (body) => {
        if (body.code >= 400) body.code = 422;
      },
    ),
  },
  {
    name: 'a 404 answers text/html',
    rule: 'ENV',
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (response.status !== 404) return response;
      return new Response('<h1>Not found</h1>', {
        status: 404,
        headers: { 'content-type': 'text/html' },
      });
    },
  },
  {
    name: 'grading defaults to full objects',
    rule: 'GRD-DEFAULT',
    wrap: editQuery((url) => {
      if (!isGrading(url)) return;
      const flag = url.pathname.startsWith('/profiles') ? 'return_profile' : 'return_job';
      if (!url.searchParams.has(flag)) url.searchParams.set(flag, 'true');
    }),
  },
  {
    name: 'grading by default adds a field to minimal items',
    rule: 'GRD-DEFAULT',
    wrap: editAnswer(
      (url) => isGrading(url) && !url.search.includes('return_'),
      (body) => {
        for (const item of listOf(body)) if (item) item.archived_at = null;
      },
    ),
  },
  {
    name: 'full items disagree with their minimal twins',
    rule: 'GRD-FULL',
    wrap: editAnswer(
      (url) => isGrading(url) && /return_\w+=true/.test(url.search),
      (body) => {
        for (const item of listOf(body)) if (item) item.updated_at = '2001-01-01T00:00:00.000Z';
      },
    ),
  },
  {
    name: 'return_profile=true is ignored',
    rule: 'GRD-FULL',
    wrap: editQuery((url) => {
      url.searchParams.delete('return_profile');
      url.searchParams.delete('return_job');
    }),
  },
  {
    name: 'grading answers in key order, not request order',
    rule: 'GRD-ALIGN',
    wrap: editAnswer(isGrading, (body) => {
      if (body.code !== 200) return;
      const list = body.data.profiles ? 'profiles' : 'jobs';
      const rows = body.data[list].map((item: any, i: number) => [
        item,
        body.data.scores[i],
        body.data.errors[i],
      ]);
      rows.sort((a: any[], b: any[]) => String(a[0]?.key).localeCompare(String(b[0]?.key)));
      body.data[list] = rows.map((r: any[]) => r[0]);
      body.data.scores = rows.map((r: any[]) => r[1]);
      body.data.errors = rows.map((r: any[]) => r[2]);
    }),
  },
  {
    name: 'a minimal field is renamed',
    rule: 'OLD-CLIENT',
    wrap: editAnswer(isGrading, (body) => {
      for (const item of listOf(body)) {
        if (item && 'source_key' in item) {
          item.sourceKey = item.source_key;
          delete item.source_key;
        }
      }
    }),
  },
  {
    name: 'POST ignores its body',
    rule: 'POST-EQ',
    wrap: (fetch) => async (request) =>
      request.method === 'POST'
        ? fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: '{}' }))
        : fetch(request),
  },
  {
    name: 'POST ignores page in its body',
    rule: 'POST-EQ',
    wrap: (fetch) => async (request) => {
      if (request.method !== 'POST') return fetch(request);
      const text = await request.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        return fetch(
          new Request(request.url, { method: 'POST', headers: request.headers, body: text }),
        );
      }
      if (body && typeof body === 'object') delete body.page;
      return fetch(
        new Request(request.url, {
          method: 'POST',
          headers: request.headers,
          body: JSON.stringify(body),
        }),
      );
    },
  },
  {
    name: 'GET is removed from searching and scoring',
    rule: 'GET-KEPT',
    wrap: (fetch) => async (request) => {
      if (request.method === 'GET' && isList(new URL(request.url))) {
        return new Response(JSON.stringify({ code: 405, message: 'Use POST.' }), {
          status: 405,
          headers: { 'content-type': 'application/json', allow: 'POST' },
        });
      }
      return fetch(request);
    },
  },
  {
    name: 'bodies over 16 KB are refused',
    rule: 'POST-LONG',
    wrap: (fetch) => async (request) => {
      const text = request.method === 'POST' ? await request.text() : undefined;
      if (text !== undefined && text.length > 16 * 1024) {
        return new Response(JSON.stringify({ code: 413, message: 'Too large.' }), {
          status: 413,
          headers: { 'content-type': 'application/json' },
        });
      }
      return fetch(
        text === undefined
          ? request
          : new Request(request.url, { method: 'POST', headers: request.headers, body: text }),
      );
    },
  },
  {
    name: 'pages overlap by one item',
    rule: 'PAGE',
    wrap: editAnswer(isList, (body) => {
      const list = listOf(body);
      if (body.meta?.page > 1 && list.length > 0) list[0] = { ...list[0], key: 'f'.repeat(40) };
    }),
  },
  {
    name: 'meta.count is one off',
    rule: 'PAGE',
    wrap: editAnswer(isList, (body) => {
      if (body.meta) body.meta.count += 1;
    }),
  },
  {
    name: 'maxPage is rounded down',
    rule: 'PAGE',
    wrap: editAnswer(isList, (body, url) => {
      const limit = Number(url.searchParams.get('limit') ?? 30);
      if (body.meta) body.meta.maxPage = Math.floor(body.meta.total / limit);
    }),
  },
  {
    name: 'an empty result has maxPage 0',
    rule: 'PAGE',
    wrap: editAnswer(isList, (body) => {
      if (body.meta?.total === 0) body.meta.maxPage = 0;
    }),
  },
  {
    name: 'a page past the last echoes the page asked for, above maxPage',
    rule: 'PAGE',
    wrap: editAnswer(isList, (body, url) => {
      const asked = Number(url.searchParams.get('page') ?? 1);
      if (body.meta && asked > body.meta.maxPage) body.meta.page = asked;
    }),
  },
  {
    name: 'order_by is ignored',
    rule: 'ORDER',
    wrap: editQuery((url) => url.searchParams.delete('order_by')),
  },
  {
    name: 'predictions are off by one',
    rule: 'PRED',
    wrap: editAnswer(isScoring, (body) => {
      body.data?.predictions?.shift();
    }),
  },
  {
    name: 'prediction pairs do not sum to 1',
    rule: 'PRED',
    wrap: editAnswer(isScoring, (body) => {
      if (body.data?.predictions)
        body.data.predictions = body.data.predictions.map((p: number[]) => [p[1], p[1]]);
    }),
  },
  {
    name: 'score_threshold is ignored',
    rule: 'PRED',
    wrap: editQuery((url) => url.searchParams.delete('score_threshold')),
  },
  {
    name: 'scores drift between calls',
    rule: 'STABLE',
    wrap: editAnswer(
      (url) => isScoring(url) || isGrading(url),
      (body) => {
        drift = (drift + 1) % 7;
        const nudge = (p: number[] | null) =>
          p === null
            ? p
            : [
                Math.max(0, (p[0] as number) - drift / 1000),
                Math.min(1, (p[1] as number) + drift / 1000),
              ];
        if (body.data?.predictions) body.data.predictions = body.data.predictions.map(nudge);
        if (body.data?.scores) body.data.scores = body.data.scores.map(nudge);
      },
    ),
  },
  {
    name: 'bad input gets a 500',
    rule: 'BAD-INPUT',
    evidence: /a 4xx status/,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (response.status !== 400) return response;
      return new Response(JSON.stringify({ code: 500, message: 'Internal server error.' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    },
  },
  {
    name: 'errors name another parameter than the invalid one',
    rule: 'BAD-INPUT',
    evidence: /errors naming the parameter/,
    wrap: editAnswer(
      () => true,
      (body) => {
        if (body.code !== 400 || !Array.isArray(body.errors)) return;
        for (const error of body.errors) error.param = `not_${error.param}`;
      },
    ),
  },
  {
    name: 'the contract drops a property of Profile',
    rule: 'ADDITIVE',
    contract: (doc) => {
      delete doc.components.schemas.Profile.properties.info;
    },
  },
  {
    name: 'the contract lets Label.stage answer "maybe"',
    rule: 'ADDITIVE',
    contract: (doc) => {
      doc.components.schemas.Label.properties.stage.enum.push('maybe');
    },
  },
  {
    name: 'the contract makes page required',
    rule: 'ADDITIVE',
    contract: (doc) => {
      doc.components.parameters.Page.required = true;
    },
  },
];

/**
 * A server the contract allows that the mock is not: it leaves the optional `errors` out of every
 * 400. No rule may fail on it (BAD-INPUT checks `errors` only where it is present).
 */
export const WITHOUT_ERRORS_LIST = editAnswer(
  () => true,
  (body) => {
    if (body.code === 400) delete body.errors;
  },
);

export function mutatedContract(mutant: Mutant, doc: OpenApiDoc): OpenApiDoc {
  const copy = structuredClone(doc);
  mutant.contract?.(copy);
  return copy;
}
