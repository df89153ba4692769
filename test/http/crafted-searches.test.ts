import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../src/api/start-mock.ts';

// A store large enough for a costly search to show: 20,000 profiles, no answer cache.
let mock: RunningMock;
let sources: string[];

beforeAll(async () => {
  mock = await startMock({ profiles: 20_000, answerCacheBytes: 0 });
  sources = mock.target.profiles.source_keys;
}, 120_000);

afterAll(() => mock?.close());

type Timed = {
  status: number;
  body: { errors?: { param: string; message: string }[] };
  ms: number;
};

async function search(body: Record<string, unknown>): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(`${mock.url}/profiles/searching`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source_keys: sources, ...body }),
  });
  const answer = (await response.json()) as Timed['body'];
  return { status: response.status, body: answer, ms: performance.now() - started };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
/** Keywords of every letter and digit, each a different order of them. */
const ALPHABETS = Array.from({ length: 50 }, (_, i) =>
  [...LETTERS.slice(i % 36), ...LETTERS.slice(0, i % 36)].join(i < 36 ? ' ' : '-'),
);

/** Within the caps, each as costly as the issue found or the bench's generator builds. */
const CRAFTED: Record<string, unknown>[] = [
  { text_keywords: Array(1000).fill('e'), sort_by: 'searching' },
  { text_keywords: Array(200).fill('e').join(','), sort_by: 'searching', limit: 100 },
  { text_keywords: LETTERS, sort_by: 'searching', limit: 100 },
  { text_keywords: ALPHABETS, sort_by: 'searching' },
  { text_keywords: ['.', ',', '-', ':', '(', "'", '/', 'c++'], sort_by: 'searching' },
  { text_keywords: ['e', 'a', 'i', 'o', 'n', 'r', 's', 't'], sort_by: 'searching', page: 50 },
  {
    text_keywords: ['( c++ e.', 'an', 'er'],
    summary_keywords: ['e', 'in'],
    sort_by: 'searching',
    limit: 100,
  },
  { text_keywords: Array(50).fill('e'), location_geopoint: { lat: 48.85, lng: 2.35 } },
];

describe('crafted searches', () => {
  it('answers a normal search while crafted ones run, and every crafted one 200 or 400', async () => {
    // Built once, before the clock matters: the SDK filters' data.
    await search({ summary_keywords: ['team'] });
    const crafted = CRAFTED.map((body) => search(body));
    const normal = await search({ text_keywords: ['python'], limit: 30 });
    const answers = await Promise.all(crafted);
    expect(normal.status).toBe(200);
    for (const answer of answers) expect([200, 400]).toContain(answer.status);
    // Generous: the crafted searches take ~0.1 s each here; unbounded, the first alone took 23 s.
    expect(normal.ms).toBeLessThan(10_000);
  }, 300_000);

  it('answers 400 naming text_keywords when looking the keywords up is over the work budget', async () => {
    const { status, body } = await search({ text_keywords: ALPHABETS });
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      {
        param: 'text_keywords',
        message: expect.stringMatching(/parts of too many words.*Send fewer keywords/),
      },
    ]);
  });

  it('answers 400 naming each keyword parameter when checking texts is over the work budget', async () => {
    const { status, body } = await search({
      text_keywords: Array.from({ length: 20 }, (_, i) => '-'.repeat(i + 1)),
      summary_keywords: ['e'],
    });
    expect(status).toBe(400);
    expect(body.errors?.map((e) => e.param)).toEqual(['text_keywords', 'summary_keywords']);
  });

  it('answers at once, with nothing, a search with a keyword no profile holds', async () => {
    const { status, body } = await search({
      text_keywords: [...ALPHABETS.slice(0, 49), 'zzqxj'],
      sort_by: 'searching',
    });
    expect(status).toBe(200);
    expect((body as { meta?: { total: number } }).meta?.total).toBe(0);
  });
});
