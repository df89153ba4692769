import { editQuery, type Fetch, type Mutant } from './rewrite.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** Mutants of what the contract states beyond one answer: defaults, routes, cross rules, filters, text. */
export const CONTRACT_MUTANTS: Mutant[] = [
  {
    name: 'pages /jobs/searching by 20 when no limit is sent',
    rule: 'DEFAULTS',
    evidence: /default limit 30.*got 20 items/,
    wrap: editQuery((url) => {
      if (url.pathname.endsWith('/jobs/searching') && !url.searchParams.has('limit'))
        url.searchParams.set('limit', '20');
    }),
  },
  {
    name: 'answers 404, not 405, to a method it does not serve',
    rule: 'ROUTES',
    evidence: /^expected 405 in the JSON error envelope .*, got 404/,
    wrap: (fetch: Fetch) => async (request) =>
      request.method === 'DELETE'
        ? json(404, { code: 404, message: 'No such operation.' })
        : fetch(request),
  },
  {
    name: 'accepts created_at_min after created_at_max and filters by neither',
    rule: 'CROSS-PARAM',
    evidence:
      /^expected 400 in the error envelope: created_at_min after created_at_max, got status 200/,
    wrap: editQuery((url) => {
      const min = url.searchParams.get('created_at_min');
      const max = url.searchParams.get('created_at_max');
      if (min !== null && max !== null && Date.parse(min) > Date.parse(max)) {
        url.searchParams.delete('created_at_min');
        url.searchParams.delete('created_at_max');
      }
    }),
  },
  {
    name: 'accepts tags_included and ignores it',
    rule: 'FILTERS',
    evidence: /^expected every item to satisfy \{"tags_included"/,
    wrap: editQuery((url) => url.searchParams.delete('tags_included')),
  },
  {
    name: 'answers 500 to a query value with a character outside ASCII',
    rule: 'ODD-TEXT',
    evidence: /^expected a 2xx or a 4xx for odd text in \w+.*, got status 500/,
    wrap: (fetch: Fetch) => async (request) =>
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range itself
      /[^\x00-\x7f]/.test(decodeURIComponent(new URL(request.url).search))
        ? json(500, { code: 500, message: 'internal error' })
        : fetch(request),
  },
  {
    name: 'answers 500 to a JSON body over 1 MB',
    rule: 'REFUSALS',
    evidence:
      /^expected 413 \(or another 4xx\) in the error envelope for a JSON body of more than 1 MB.*, got status 500/,
    wrap: (fetch: Fetch) => async (request) =>
      request.method === 'POST' && (await request.clone().text()).length > 1024 * 1024
        ? json(500, { code: 500, message: 'internal error' })
        : fetch(request),
  },
];
