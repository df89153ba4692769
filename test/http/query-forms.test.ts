import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import { paramsFromPairs, queryPairs } from '../../src/http/query-forms.ts';
import { type ErrorAnswer, firstError } from '../support/answers.ts';
import { seedFastCheck } from '../support/fuzz-seed.ts';
import { mockApp, query, send } from '../support/mock-app.ts';

seedFastCheck('test/http/query-forms.test.ts');

const { app, fixtures } = mockApp();
const target = targetOf(app.state.store);
const [sourceA = '', sourceB = ''] = fixtures.sources.map((s) => s.key);
const lyon = { lat: 45.764, lng: 4.8357 };
const search = { source_keys: [sourceA, sourceB], limit: 100 };
const grading = {
  algorithm_key: target.profiles.algorithm_key,
  board_key: target.profiles.board_key,
  job_key: target.profiles.job_key,
};
const [first, second] = target.profiles.profile_ids;

/**
 * One row per form a client library gives a parameter: the parameter's name, its canonical
 * value (what the contract's JSON-encoded form carries) and the query-string text of the form.
 * Every row must answer exactly as the canonical form does, and differently from leaving the
 * parameter out (so a form that is silently dropped fails).
 */
type Row = {
  form: string;
  path: string;
  base: Record<string, unknown>;
  name: string;
  canonical: unknown;
  encoded: string;
};

const e = encodeURIComponent;
const rows: Row[] = [
  {
    form: 'source_keys repeated (requests, httpx, URLSearchParams.append)',
    path: '/profiles/searching',
    base: { limit: 100 },
    name: 'source_keys',
    canonical: [sourceA, sourceB],
    encoded: `source_keys=${sourceA}&source_keys=${sourceB}`,
  },
  {
    form: 'source_keys[] (axios 1.x, PHP)',
    path: '/profiles/searching',
    base: { limit: 100 },
    name: 'source_keys',
    canonical: [sourceA, sourceB],
    encoded: `source_keys[]=${sourceA}&source_keys[]=${sourceB}`,
  },
  {
    form: 'source_keys[0], [1] (qs, PHP with indexes)',
    path: '/profiles/searching',
    base: { limit: 100 },
    name: 'source_keys',
    canonical: [sourceA, sourceB],
    encoded: `source_keys[1]=${sourceB}&source_keys[0]=${sourceA}`,
  },
  {
    form: 'source_keys comma-joined (URLSearchParams from an object holding an array)',
    path: '/profiles/searching',
    base: { limit: 100 },
    name: 'source_keys',
    canonical: [sourceA, sourceB],
    encoded: `source_keys=${e(`${sourceA},${sourceB}`)}`,
  },
  {
    form: "source_keys as a Python list's str()",
    path: '/profiles/searching',
    base: { limit: 100 },
    name: 'source_keys',
    canonical: [sourceA, sourceB],
    encoded: `source_keys=${e(`['${sourceA}', '${sourceB}']`)}`,
  },
  {
    form: 'text_keywords[] (axios 1.x)',
    path: '/profiles/searching',
    base: search,
    name: 'text_keywords',
    canonical: ['python', 'sql'],
    encoded: 'text_keywords[]=python&text_keywords[]=sql',
  },
  {
    form: 'text_keywords comma-joined (URLSearchParams)',
    path: '/profiles/searching',
    base: search,
    name: 'text_keywords',
    canonical: ['python', 'sql'],
    encoded: 'text_keywords=python%2Csql',
  },
  {
    form: 'one plain keyword',
    path: '/profiles/searching',
    base: search,
    name: 'text_keywords',
    canonical: ['python'],
    encoded: 'text_keywords=python',
  },
  {
    form: 'location_geopoint[lat], [lng] (axios 1.x, qs)',
    path: '/profiles/searching',
    base: { ...search, location_distance: 300 },
    name: 'location_geopoint',
    canonical: lyon,
    encoded: `location_geopoint[lat]=${lyon.lat}&location_geopoint[lng]=${lyon.lng}`,
  },
  {
    form: 'location_geopoint {lat, lon} (the JS SDK README)',
    path: '/profiles/searching',
    base: { ...search, location_distance: 300 },
    name: 'location_geopoint',
    canonical: lyon,
    encoded: `location_geopoint=${e(JSON.stringify({ lat: lyon.lat, lon: lyon.lng }))}`,
  },
  {
    form: 'location_geopoint[lat], [lon]',
    path: '/profiles/searching',
    base: { ...search, location_distance: 300 },
    name: 'location_geopoint',
    canonical: lyon,
    encoded: `location_geopoint[lat]=${lyon.lat}&location_geopoint[lon]=${lyon.lng}`,
  },
  {
    form: "location_geopoint as a Python dict's str() (httpx)",
    path: '/profiles/searching',
    base: { ...search, location_distance: 300 },
    name: 'location_geopoint',
    canonical: lyon,
    encoded: `location_geopoint=${e(`{'lat': ${lyon.lat}, 'lng': ${lyon.lng}}`)}`,
  },
  {
    form: 'skills[0][name] (axios 1.x drops the null value)',
    path: '/profiles/searching',
    base: search,
    name: 'skills',
    canonical: [{ name: 'Python', value: null }],
    encoded: 'skills[0][name]=Python',
  },
  {
    form: 'skills with a number value (0.9, as the SDK docs send)',
    path: '/profiles/searching',
    base: search,
    name: 'skills',
    canonical: [{ name: 'Python', value: null }],
    encoded: `skills=${e('[{"name":"Python","value":0.9}]')}`,
  },
  {
    form: 'languages[0][name], [0][value]',
    path: '/profiles/searching',
    base: search,
    name: 'languages',
    canonical: [{ name: 'English', value: 'fluent' }],
    encoded: 'languages[0][name]=English&languages[0][value]=fluent',
  },
  {
    form: 'tags_included[0][name] (a flat list of objects)',
    path: '/profiles/searching',
    base: search,
    name: 'tags_included',
    canonical: [{ name: 'remote', value: 'hybrid' }],
    encoded: 'tags_included[0][name]=remote&tags_included[0][value]=hybrid',
  },
  {
    form: 'tags_included[0][1][name] (a list of lists)',
    path: '/profiles/searching',
    base: search,
    name: 'tags_included',
    canonical: [
      [
        { name: 'remote', value: 'hybrid' },
        { name: 'remote', value: 'yes' },
      ],
    ],
    encoded:
      'tags_included[0][0][name]=remote&tags_included[0][0][value]=hybrid' +
      '&tags_included[0][1][name]=remote&tags_included[0][1][value]=yes',
  },
  {
    form: "tags_excluded as a Python list's str()",
    path: '/profiles/searching',
    base: search,
    name: 'tags_excluded',
    canonical: [{ name: 'remote', value: 'yes' }],
    encoded: `tags_excluded=${e("[{'name': 'remote', 'value': 'yes'}]")}`,
  },
  {
    form: 'created_at_min with an unencoded + offset (arrives as a space)',
    path: '/profiles/searching',
    base: search,
    name: 'created_at_min',
    canonical: '2025-06-01T00:00:00+0000',
    encoded: 'created_at_min=2025-06-01T00:00:00+0000',
  },
  {
    form: 'profile_ids[0][source_key] (PHP, axios 1.x)',
    path: '/profiles/grading',
    base: grading,
    name: 'profile_ids',
    canonical: [first, second],
    encoded: [first, second]
      .flatMap((id, i) => [
        `profile_ids[${i}][source_key]=${id?.source_key}`,
        `profile_ids[${i}][profile_key]=${id?.profile_key}`,
      ])
      .join('&'),
  },
  {
    form: "profile_ids as a Python list's str()",
    path: '/profiles/grading',
    base: grading,
    name: 'profile_ids',
    canonical: [first, second],
    encoded: `profile_ids=${e(
      `[${[first, second].map((id) => `{'source_key': '${id?.source_key}', 'profile_key': '${id?.profile_key}'}`).join(', ')}]`,
    )}`,
  },
];

describe('query-string forms of lists and objects', () => {
  it.each(rows)('$form answers as the JSON-encoded form', async (row) => {
    const canonical = await send(
      app,
      `${row.path}?${query({ ...row.base, [row.name]: row.canonical })}`,
    );
    const encoded = await send(app, `${row.path}?${query(row.base)}&${row.encoded}`);
    const without = await send(app, `${row.path}?${query(row.base)}`);
    expect(canonical.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(encoded.body).toEqual(canonical.body);
    expect(canonical.body).not.toEqual(without.body);
  });

  it('keeps the plain value of a name also sent with brackets', () => {
    const raw = paramsFromPairs([
      ['source_keys', '["a"]'],
      ['source_keys[]', 'b'],
    ]);
    expect(raw.get('source_keys')).toBe('["a"]');
  });

  it('orders indexed items by index, whatever order they came in', () => {
    const raw = paramsFromPairs([
      ['k[10]', 'c'],
      ['k[2]', 'b'],
      ['k[0]', 'a'],
    ]);
    expect(raw.get('k')).toEqual(['a', 'b', 'c']);
  });

  it('reads __proto__ in brackets as a field, not as the prototype', () => {
    const raw = paramsFromPairs([['location_geopoint[__proto__][lat]', '1']]);
    const value = raw.get('location_geopoint') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).lat).toBeUndefined();
  });

  it('leaves a name nested deeper than six brackets undecoded', () => {
    const raw = paramsFromPairs([['a[0][1][2][3][4][5][6]', 'x']]);
    expect([...raw.keys()]).toEqual(['a[0][1][2][3][4][5][6]']);
  });

  it('tells a client that sent an object as "[object Object]" how to encode it', async () => {
    const reply = await send<ErrorAnswer>(
      app,
      `/profiles/searching?${query(search)}&location_geopoint=${e('[object Object]')}`,
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0]).toMatchObject({ param: 'location_geopoint' });
    expect(firstError(reply.body).message).toMatch(/JSON\.stringify|location_geopoint\[field\]/);
  });
});

describe('queryPairs', () => {
  const pieces = fc.constantFrom(
    'a',
    'é',
    '%',
    '%2',
    '%41',
    '%e9',
    '%C3%A9',
    '%FF',
    '+',
    '&',
    '=',
    '[',
    ']',
    ' ',
    '%2B',
    '%26',
    '😀',
    '%F0%9F%98%80',
  );

  it('reads any query string exactly as URLSearchParams does', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const search = parts.join('');
        expect(queryPairs(search)).toEqual([...new URLSearchParams(search)]);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a JSON-encoded grading parameter', () => {
    const value = JSON.stringify([{ source_key: 'a b', profile_key: 'é+' }]);
    const search = new URLSearchParams({ profile_ids: value, x: '' }).toString();
    expect(queryPairs(search)).toEqual([
      ['profile_ids', value],
      ['x', ''],
    ]);
  });
});
