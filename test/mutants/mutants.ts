import { isObject } from '../../contract/suite/json-shape.ts';
import { listAt, objAt } from '../support/json-reads.ts';
import { CONTRACT_MUTANTS } from './contract-mutants.ts';
import { GRADING_MUTANTS } from './grading-mutants.ts';
import { LIST_MUTANTS } from './list-mutants.ts';
import {
  answer,
  editAnswer,
  type Fetch,
  isGrading,
  isList,
  listOf,
  type Mutant,
  predictionsOf,
} from './rewrite.ts';

export { type Fetch, type Mutant, mutatedContract, said } from './rewrite.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A POST made again with `text` as its body (a request's body can be read only once). */
const repost = (request: Request, text: string) =>
  new Request(request.url, { method: 'POST', headers: request.headers, body: text });

const ENVELOPE_MUTANTS: Mutant[] = [
  {
    name: 'error answers carry a code other than their status',
    rule: 'ENV',
    evidence: /^expected code = the HTTP status 404, got 422$/,
    wrap: editAnswer(
      (_, r) => r.method === 'GET',
      (body) => {
        if (typeof body.code === 'number' && body.code >= 400) body.code = 422;
      },
    ),
  },
  {
    name: 'a 404 answers text/html',
    rule: 'ENV',
    evidence: /^expected Content-Type application\/json, got text\/html$/,
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
    name: 'a 404 answers HTML labelled as JSON',
    rule: 'ENV',
    evidence: /^expected a JSON body, got <h1>Not found<\/h1>$/,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (response.status !== 404) return response;
      return new Response('<h1>Not found</h1>', {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    },
  },
  {
    name: 'a list answer leaves out its meta',
    rule: 'ENV',
    evidence:
      /^expected a body valid against the contract for status 200, got .*must have required property 'meta'/,
    wrap: editAnswer(isList, (body) => {
      if (body.code === 200) delete body.meta;
    }),
  },
  {
    name: 'a method it does not serve is answered 200',
    rule: 'ENV',
    evidence: /^expected a 405 \(or 404\), got 200$/,
    wrap: (fetch) => async (request) =>
      request.method === 'DELETE' ? json(200, { code: 200, message: 'Deleted.' }) : fetch(request),
  },
  {
    name: 'a 405 does not list GET in Allow',
    rule: 'ENV',
    evidence: /^expected an Allow header listing GET, got POST$/,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (response.status !== 405) return response;
      const headers = new Headers(response.headers);
      headers.set('allow', 'POST');
      return new Response(response.body, { status: 405, headers });
    },
  },
];

const METHOD_MUTANTS: Mutant[] = [
  {
    name: 'POST ignores its body',
    rule: 'POST-EQ',
    evidence: /^expected status 200, as GET answers, got 400$/,
    wrap: (fetch) => async (request) =>
      fetch(request.method === 'POST' ? repost(request, '{}') : request),
  },
  {
    name: 'POST ignores page in its body',
    rule: 'POST-EQ',
    evidence: /^expected the data GET answers \(.*\), got \{"profiles"/,
    wrap: (fetch) => async (request) => {
      if (request.method !== 'POST') return fetch(request);
      const text = await request.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return fetch(repost(request, text));
      }
      if (isObject(body)) delete body.page;
      return fetch(repost(request, JSON.stringify(body)));
    },
  },
  {
    name: 'POST refuses a list sent as a JSON-encoded string',
    rule: 'POST-EQ',
    evidence: /^expected status 200, as GET answers, got 400$/,
    wrap: (fetch) => async (request) => {
      if (request.method !== 'POST') return fetch(request);
      const text = await request.text();
      if (/":"\[/.test(text)) return json(400, { code: 400, message: 'Lists must be arrays.' });
      return fetch(repost(request, text));
    },
  },
  {
    name: 'POST answers 200 with a body that is not JSON',
    rule: 'POST-EQ',
    evidence: /^expected the data GET answers \(.*\), got undefined$/,
    wrap: (fetch) => async (request) =>
      request.method === 'POST'
        ? new Response('OK', { status: 200, headers: { 'content-type': 'text/plain' } })
        : fetch(request),
  },
  {
    name: 'GET answers 200 with a body that is not JSON',
    rule: 'POST-EQ',
    evidence: /^expected the data GET answers \(undefined\), got \{"profiles"/,
    wrap: (fetch) => async (request) =>
      request.method === 'GET' && isList(new URL(request.url))
        ? new Response('OK', { status: 200, headers: { 'content-type': 'text/plain' } })
        : fetch(request),
  },
  {
    name: 'GET is removed from searching and scoring',
    rule: 'GET-KEPT',
    evidence: /^expected status 200 with data, got status 405: /,
    wrap: (fetch) => async (request) =>
      request.method === 'GET' && isList(new URL(request.url))
        ? json(405, { code: 405, message: 'Use POST.' }, { allow: 'POST' })
        : fetch(request),
  },
  {
    name: 'bodies over 16 KB are refused',
    rule: 'POST-LONG',
    evidence: /^expected status 200 with data, got status 413: /,
    wrap: (fetch) => async (request) => {
      if (request.method !== 'POST') return fetch(request);
      const text = await request.text();
      if (text.length > 16 * 1024) return json(413, { code: 413, message: 'Too large.' });
      return fetch(repost(request, text));
    },
  },
  {
    name: 'a long POST is answered without its list',
    rule: 'POST-LONG',
    evidence: /^expected data\.profiles a list, got \{\}$/,
    wrap: (fetch) => async (request) => {
      if (request.method !== 'POST') return fetch(request);
      const text = await request.text();
      const response = await fetch(repost(request, text));
      if (text.length < 32 * 1024) return response;
      return answer(await response.json(), response, (body) => {
        body.data = {};
      });
    },
  },
];

const BAD_INPUT_MUTANTS: Mutant[] = [
  {
    name: 'bad input gets a 500',
    rule: 'BAD-INPUT',
    evidence: /^expected a 4xx status \(never a 5xx\), got status 500: /,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (response.status !== 400) return response;
      return json(500, { code: 500, message: 'Internal server error.' });
    },
  },
  {
    name: 'errors name another parameter than the invalid one',
    rule: 'BAD-INPUT',
    evidence:
      /^expected errors naming the parameter source_keys .*, got \[\{"param":"not_source_keys"/,
    wrap: editAnswer(
      () => true,
      (body) => {
        if (body.code !== 400 || !Array.isArray(body.errors)) return;
        for (const error of body.errors) if (isObject(error)) error.param = `not_${error.param}`;
      },
    ),
  },
  {
    name: 'bad input is answered 200',
    rule: 'BAD-INPUT',
    evidence: /^expected a 4xx status \(never a 5xx\), got status 200: /,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      if (response.status !== 400) return response;
      return json(200, { code: 200, message: 'Searching results.', data: {} });
    },
  },
  {
    name: 'a 400 carries no message',
    rule: 'BAD-INPUT',
    evidence: /^expected an error envelope \{code: 400, message\}, got \{"code":400,"errors"/,
    wrap: editAnswer(
      () => true,
      (body) => {
        if (body.code === 400) delete body.message;
      },
    ),
  },
  {
    name: 'a 400 says code 200 in its body',
    rule: 'BAD-INPUT',
    evidence: /^expected an error envelope \{code: 400, message\}, got \{"code":200,/,
    wrap: editAnswer(
      () => true,
      (body) => {
        if (body.code === 400) body.code = 200;
      },
    ),
  },
  {
    name: 'a 400 answers JSON null',
    rule: 'BAD-INPUT',
    evidence: /^expected an error envelope \{code: 400, message\}, got null$/,
    wrap: (fetch) => async (request) => {
      const response = await fetch(request);
      return response.status === 400 ? json(400, null) : response;
    },
  },
];

const DOCUMENT_MUTANTS: Mutant[] = [
  {
    name: 'the contract drops a property of Profile',
    rule: 'ADDITIVE',
    evidence: /^expected no breaking change, got .*\.profiles\[\]\.info: property removed/,
    contract: (doc) => {
      delete objAt(doc, 'components', 'schemas', 'Profile', 'properties').info;
    },
  },
  {
    name: 'the contract lets Label.stage answer "maybe"',
    rule: 'ADDITIVE',
    evidence:
      /^expected no breaking change, got .*\.labels\[\]\.stage: enum widened: "maybe" added/,
    contract: (doc) => {
      listAt(doc, 'components', 'schemas', 'Label', 'properties', 'stage', 'enum').push('maybe');
    },
  },
  {
    name: 'the contract makes page required',
    rule: 'ADDITIVE',
    evidence: /^expected no breaking change, got .*query:page: parameter newly required/,
    contract: (doc) => {
      objAt(doc, 'components', 'parameters', 'Page').required = true;
    },
  },
];

export const MUTANTS: Mutant[] = [
  ...ENVELOPE_MUTANTS,
  ...GRADING_MUTANTS,
  ...METHOD_MUTANTS,
  ...LIST_MUTANTS,
  ...BAD_INPUT_MUTANTS,
  ...DOCUMENT_MUTANTS,
  ...CONTRACT_MUTANTS,
];

/**
 * A server the contract allows that the mock is not: it leaves the optional `errors` out of every
 * 400. No rule may fail on it (BAD-INPUT checks `errors` only where it is present).
 */
export const WITHOUT_ERRORS_LIST = (fetch: Fetch): Fetch =>
  editAnswer(
    () => true,
    (body) => {
      if (body.code === 400) delete body.errors;
    },
  )(fetch);

/**
 * Servers the contract allows that the mock is not: no rule may fail on them. Grading may answer
 * null for an item it could not grade, with its error, minimal or full alike.
 */
export const CONFORMING: { name: string; wrap: (fetch: Fetch) => Fetch }[] = [
  { name: 'leaves the optional errors list out of its 400s', wrap: WITHOUT_ERRORS_LIST },
  {
    name: 'ranks first an item scored exactly [0, 1]',
    wrap: editAnswer(
      (url) =>
        ['scoring', 'score_predictive'].includes(url.searchParams.get('sort_by') ?? '') &&
        url.searchParams.get('order_by') !== 'asc',
      (body) => {
        const predictions = predictionsOf(body);
        if (predictions !== undefined && predictions.length > 0) predictions[0] = [0, 1];
      },
    ),
  },
  {
    name: 'answers null for a graded item it could not grade',
    wrap: editAnswer(isGrading, (body) => {
      if (body.code !== 200) return;
      const list = listOf(body);
      listAt(body, 'data', 'errors').forEach((error, i) => {
        if (error !== null) list[i] = null;
      });
    }),
  },
];
