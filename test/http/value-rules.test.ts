// The value rules of the contract's description ("Values"), on GET and POST alike: values are
// trimmed at both ends, a blank one is absent, numbers are decimal, an empty tag group is refused.
import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import type { ErrorAnswer, ProfilesSearching } from '../support/answers.ts';
import { get, mockApp, post, type Reply, send as sendRaw } from '../support/mock-app.ts';

const { app } = mockApp();
const t = targetOf(app.state.store);
const [sourceKey] = t.profiles.source_keys as [string];
const [boardKey] = t.jobs.board_keys as [string];

type Params = Record<string, unknown>;

/** Each operation with values of every kind its parameters take, as a tidy client sends them. */
const TIDY: [string, Params][] = [
  [
    '/profiles/searching',
    {
      source_keys: [sourceKey],
      limit: '10',
      page: '2',
      sort_by: 'created_at',
      order_by: 'asc',
      text_keywords: ['english'],
      location_geopoint: { lat: '45.76', lng: '4.83' },
      location_distance: '900',
    },
  ],
  ['/jobs/searching', { board_keys: [boardKey], limit: '5', order_by: 'desc', stage: 'new' }],
  [
    '/profiles/scoring',
    {
      source_keys: [sourceKey],
      algorithm_key: 'scorer',
      board_key: t.profiles.board_key,
      job_key: t.profiles.job_key,
      use_algorithm: '1',
      score_threshold: '0.1',
      sort_by: 'scoring',
      limit: '7',
    },
  ],
  [
    '/jobs/scoring',
    {
      board_keys: [boardKey],
      algorithm_key: 'scorer',
      source_key: t.jobs.source_key,
      profile_key: t.jobs.profile_key,
      experiences_duration_min: '0',
      limit: '7',
    },
  ],
  [
    '/profiles/grading',
    {
      algorithm_key: 'grader',
      board_key: t.profiles.board_key,
      job_key: t.profiles.job_key,
      profile_ids: t.profiles.profile_ids.slice(0, 3),
      return_profile: 'true',
    },
  ],
  [
    '/jobs/grading',
    {
      algorithm_key: 'grader',
      source_key: t.jobs.source_key,
      profile_key: t.jobs.profile_key,
      job_ids: t.jobs.job_ids.slice(0, 3),
      return_job: 'false',
    },
  ],
];

/** Every string at any depth with white space added at both ends, as clients pad them. */
function padded(value: unknown): unknown {
  if (typeof value === 'string') return ` \t${value}  `;
  if (Array.isArray(value)) return value.map(padded);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, padded(v)]));
  return value;
}

function send<Body = unknown>(
  method: 'GET' | 'POST',
  path: string,
  params: Params,
): Promise<Reply<Body>> {
  return method === 'GET' ? get<Body>(app, path, params) : post<Body>(app, path, params);
}

const methodsOf = (path: string) => (path.endsWith('/grading') ? ['GET'] : ['GET', 'POST']);
const EACH = TIDY.flatMap(([path, params]) =>
  methodsOf(path).map((method) => [method as 'GET' | 'POST', path, params] as const),
);

function errorOf(reply: Reply<ErrorAnswer>, param: string): string {
  expect(reply.status).toBe(400);
  const error = (reply.body.errors ?? []).find((e) => e.param === param);
  expect(error, JSON.stringify(reply.body)).toBeDefined();
  return error?.message as string;
}

describe('white space at the ends of a value', () => {
  it.each(EACH)('%s %s: every value padded answers as the tidy request', async (m, path, p) => {
    const tidy = await send(m, path, p);
    const spaced = await send(m, path, padded(p) as Params);
    expect(tidy.status).toBe(200);
    expect(spaced.status).toBe(200);
    expect(spaced.body).toEqual(tidy.body);
  });

  it.each(['GET', 'POST'] as const)('%s: a padded key in a list of keys is that key', async (m) => {
    const reply = await send(m, '/profiles/searching', { source_keys: [` ${sourceKey} `] });
    const tidy = await send(m, '/profiles/searching', { source_keys: [sourceKey] });
    expect(reply.body).toEqual(tidy.body);
  });

  it.each(['GET', 'POST'] as const)('%s: a blank optional value is left out', async (m) => {
    const blank = await send(m, '/profiles/searching', { source_keys: [sourceKey], limit: '  ' });
    const without = await send(m, '/profiles/searching', { source_keys: [sourceKey] });
    expect(blank.status).toBe(200);
    expect(blank.body).toEqual(without.body);
  });

  const required: [string, string, Params][] = [
    ['/profiles/searching', 'source_keys', { limit: '3' }],
    ['/jobs/searching', 'board_keys', {}],
    ['/profiles/scoring', 'board_key', { source_keys: [sourceKey], job_key: t.profiles.job_key }],
    ['/jobs/grading', 'algorithm_key', { ...(TIDY[5]?.[1] as Params) }],
  ];
  it.each(
    required.flatMap(([path, name, rest]) =>
      methodsOf(path).map((m) => [m as 'GET' | 'POST', path, name, rest] as const),
    ),
  )('%s %s: %s of white space only is missing, a 400 naming it', async (m, path, name, rest) => {
    const message = errorOf(await send(m, path, { ...rest, [name]: ' \t ' }), name);
    expect(message).toMatch(new RegExp(`^${name} is required`));
  });

  it.each(['GET', 'POST'] as const)('%s: a blank keyword is a 400 naming it', async (m) => {
    const reply = await send<ErrorAnswer>(m, '/profiles/searching', {
      source_keys: [sourceKey],
      text_keywords: ['python', '  '],
    });
    expect(errorOf(reply, 'text_keywords')).toMatch(/non-empty strings/);
  });
});

describe('an empty tag group', () => {
  const tag = { name: 'remote', value: 'yes' };
  const cases = ['tags_included', 'tags_excluded'].flatMap((name) =>
    [
      ['/profiles/searching', { source_keys: [sourceKey] }],
      ['/jobs/scoring', TIDY[3]?.[1] as Params],
    ].flatMap(([path, base]) =>
      (['GET', 'POST'] as const).flatMap((m) =>
        [[[]], [[tag], []], '[[]]'].map(
          (groups) => [m, path as string, name, groups, base as Params] as const,
        ),
      ),
    ),
  );

  it.each(cases)(
    '%s %s: %s=%j is a 400 saying what to send',
    async (m, path, name, groups, base) => {
      const message = errorOf(await send(m, path, { ...base, [name]: groups }), name);
      expect(message).toMatch(new RegExp(`^${name} holds an empty group \\[\\]`));
      expect(message).toContain(`${name}=[[{"name":"remote","value":"yes"}]]`);
    },
  );

  it.each([
    ['skills', '/profiles/searching', { source_keys: [sourceKey] }],
    ['profile_ids', '/profiles/grading', TIDY[4]?.[1] as Params],
  ])('%s=[[]] is a 400 naming it', async (name, path, base) => {
    errorOf(await get(app, path, { ...base, [name]: [[]] }), name);
  });
});

describe('Unix times with a fraction', () => {
  const at = 1_704_067_200.123456;
  const iso = new Date(Math.floor(at * 1000)).toISOString();

  it.each(['GET', 'POST'] as const)(
    '%s: timestamp_start takes one, as a number or text',
    async (m) => {
      const base = { source_keys: [sourceKey], limit: '100' };
      const byIso = await send<ProfilesSearching>(m, '/profiles/searching', {
        ...base,
        created_at_min: iso,
      });
      const asText = await send<ProfilesSearching>(m, '/profiles/searching', {
        ...base,
        timestamp_start: String(at),
      });
      const asNumber = await post(app, '/profiles/searching', { ...base, timestamp_start: at });
      expect(asText.status).toBe(200);
      expect(asText.body.meta.total).toBeGreaterThan(0);
      expect(asText.body.meta.total).toBeLessThan(byIso.body.meta.total + 1);
      expect(asText.body).toEqual(asNumber.body);
    },
  );

  it('timestamp_end takes one in a query string', async () => {
    const reply = await get(app, '/jobs/searching', {
      board_keys: [boardKey],
      timestamp_end: '1893456000.5',
    });
    expect(reply.status).toBe(200);
  });

  it.each(['GET', 'POST'] as const)(
    '%s: created_at_min names timestamp_start for one',
    async (m) => {
      const reply = await send<ErrorAnswer>(m, '/profiles/searching', {
        source_keys: [sourceKey],
        created_at_min: String(at),
      });
      expect(errorOf(reply, 'created_at_min')).toMatch(
        /Unix time in seconds goes in timestamp_start/,
      );
    },
  );
});

describe('a date-time without an offset', () => {
  it.each(['GET', 'POST'] as const)('%s: is read as UTC', async (m) => {
    const base = { source_keys: [sourceKey], limit: '100' };
    const local = await send(m, '/profiles/searching', {
      ...base,
      created_at_min: '2024-05-01T10:00:00',
      created_at_max: '2025-01-01 08:30',
    });
    const utc = await send(m, '/profiles/searching', {
      ...base,
      created_at_min: '2024-05-01T10:00:00Z',
      created_at_max: '2025-01-01T08:30:00Z',
    });
    expect(local.status).toBe(200);
    expect(local.body).toEqual(utc.body);
  });
});

describe('numbers that are not decimal', () => {
  const base = { source_keys: [sourceKey] };
  const integers = ['0x10', '0b1', '0o7', '1e3', '+5', '1_000', '10.0', 'Infinity', '-Infinity'];
  const cases = ['limit', 'page'].flatMap((name) =>
    (['GET', 'POST'] as const).flatMap((m) => integers.map((v) => [m, name, v] as const)),
  );

  it.each(cases)('%s: %s=%s is a 400 asking for decimal digits', async (m, name, value) => {
    const message = errorOf(await send(m, '/profiles/searching', { ...base, [name]: value }), name);
    expect(message).toMatch(new RegExp(`^${name} must be an integer .* in decimal digits only`));
  });

  it.each([
    ['0x10', 'send limit=16'],
    ['+5', 'send limit=5'],
    ['1_0', 'send limit=10'],
    ['1e3', 'e.g. limit=30'],
  ])('says which integer to send for limit=%s', async (value, hint) => {
    const reply = await get<ErrorAnswer>(app, '/profiles/searching', { ...base, limit: value });
    expect(errorOf(reply, 'limit')).toContain(hint);
  });

  it('takes a whole JSON number in a body, as JSON cannot tell 1e1 from 10', async () => {
    const text = `{"source_keys":["${sourceKey}"],"limit":1e1}`;
    const reply = await post<ProfilesSearching>(app, '/profiles/searching', text);
    expect(reply.status).toBe(200);
    expect(reply.body.meta.count).toBe(10);
  });

  const point = { location_geopoint: { lat: 45.76, lng: 4.83 } };
  it.each(
    ['0x10', '+5', '1_0', 'Infinity'].flatMap((v) =>
      (['GET', 'POST'] as const).map((m) => [m, v] as const),
    ),
  )('%s: location_distance=%s is a 400 asking for decimal notation', async (m, value) => {
    const reply = await send<ErrorAnswer>(m, '/profiles/searching', {
      ...base,
      ...point,
      location_distance: value,
    });
    expect(errorOf(reply, 'location_distance')).toMatch(/in decimal notation/);
  });

  it.each(['GET', 'POST'] as const)('%s: takes an exponent in a decimal number', async (m) => {
    const withExponent = await send(m, '/profiles/searching', {
      ...base,
      ...point,
      location_distance: '5e2',
    });
    const plain = await send(m, '/profiles/searching', {
      ...base,
      ...point,
      location_distance: '500',
    });
    expect(withExponent.status).toBe(200);
    expect(withExponent.body).toEqual(plain.body);
  });

  it('refuses a hexadecimal coordinate and score_threshold', async () => {
    const near = await get<ErrorAnswer>(app, '/profiles/searching', {
      ...base,
      location_geopoint: { lat: '0x10', lng: '4' },
    });
    errorOf(near, 'location_geopoint');
    const scored = await get<ErrorAnswer>(app, '/profiles/scoring', {
      ...(TIDY[2]?.[1] as Params),
      score_threshold: '0x0',
    });
    expect(errorOf(scored, 'score_threshold')).toMatch(/in decimal notation/);
  });
});

describe('a + in a query string', () => {
  it('is a space when unencoded, so limit=+5 is 5, and a 400 when encoded', async () => {
    const path = `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify([sourceKey]))}`;
    const plus = await sendRaw<ProfilesSearching>(app, `${path}&limit=+5`);
    expect(plus.status).toBe(200);
    expect(plus.body.meta.count).toBe(5);
    expect(errorOf(await sendRaw(app, `${path}&limit=%2B5`), 'limit')).toContain('send limit=5');
  });
});
