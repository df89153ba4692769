import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../../mocks/build-fixtures.ts';
import { Journal } from '../../../src/http/admin/journal.ts';
import { createApp } from '../../../src/http/app.ts';
import type { JournalPage } from '../../support/admin-answers.ts';
import { nth } from '../../support/json-reads.ts';

const KB = 1024;
const MB = 1024 * KB;
const fixtures = buildFixtures({ seed: 7, profiles: 40, jobs: 10 });
const headers = { host: '127.0.0.1:4010', 'content-type': 'application/json' };

/** A JSON body of about `bytes` bytes, one long keyword in it. */
function bodyOf(bytes: number): string {
  return JSON.stringify({ text_keywords: ['k'.repeat(bytes - 24)] });
}

async function listed(app: ReturnType<typeof createApp>, init: RequestInit = {}) {
  const answer = await app.request('/_mock/requests', init);
  return { status: answer.status, body: (await answer.json()) as JournalPage };
}

describe('the journal keeps at most 64 KB of a piece', () => {
  it('cuts a 2 MB body to 64 KB with a marker and the size sent', () => {
    const journal = new Journal(10);
    const body = bodyOf(2 * MB);
    journal.record('POST', '/profiles/searching', body, headers, 200, 1);
    const [entry] = journal.list();
    expect(entry?.truncated).toEqual({ body: body.length });
    expect(entry?.body?.endsWith(`…[truncated: ${body.length} bytes]`)).toBe(true);
    expect(entry?.body?.length).toBeLessThanOrEqual(64 * KB + 40);
    expect(entry?.body?.startsWith('{"text_keywords":["kkk')).toBe(true);
  });

  it('cuts a 2 MB body sent as bytes the same way', () => {
    const journal = new Journal(10);
    const body = Buffer.from(bodyOf(2 * MB));
    journal.record('POST', '/profiles/searching', body, headers, 200, 1);
    expect(journal.list()[0]?.truncated).toEqual({ body: body.length });
  });

  it('cuts 200 KB of headers to 64 KB, marking the value cut and the size sent', () => {
    const journal = new Journal(10);
    const sent = { ...headers, 'x-big': 'v'.repeat(200 * KB), 'x-after': 'gone' };
    journal.record('GET', '/profiles/searching', undefined, sent, 200, 1);
    const [entry] = journal.list();
    expect(entry?.headers.host).toBe('127.0.0.1:4010');
    expect(entry?.headers['x-big']?.endsWith(`…[truncated: ${200 * KB} bytes]`)).toBe(true);
    expect(entry?.headers['x-big']?.length).toBeLessThan(64 * KB);
    expect(entry?.headers['x-after']).toBeUndefined();
    expect(entry?.truncated?.headers).toBeGreaterThan(200 * KB);
  });

  it('answers the POST of a 2 MB body in the journal as 64 KB and its size (mock limit 4 MB)', async () => {
    const app = createApp({ data: fixtures, log: false, limits: { bodyBytes: 4 * MB } });
    const body = bodyOf(2 * MB);
    await app.request('/profiles/searching', { method: 'POST', body, headers });
    const { status, body: journal } = await listed(app);
    expect(status).toBe(200);
    expect(nth(journal.data, 0).truncated).toEqual({ body: body.length });
    expect(nth(journal.data, 0).body?.length).toBeLessThanOrEqual(64 * KB + 40);
  });
});

describe('the journal stays within its budget of bytes', () => {
  it('holds 40 bodies of 2 MB in 64 KB each, within 32 MiB', () => {
    const journal = new Journal(1000);
    for (let k = 0; k < 40; k++)
      journal.record('POST', '/profiles/searching', bodyOf(2 * MB), headers, 200, 1);
    const kept = journal.list();
    expect(kept).toHaveLength(40);
    const bytes = kept.reduce((sum, e) => sum + (e.body?.length ?? 0), 0);
    expect(bytes).toBeLessThanOrEqual(40 * (64 * KB + 40));
    expect(journal.bytes).toBeLessThanOrEqual(32 * MB);
  });

  it('drops the oldest requests to stay inside the budget, then keeps the newest in order', () => {
    const journal = new Journal(1000);
    for (let k = 1; k <= 3000; k++)
      journal.record('POST', `/profiles/searching?page=${k}`, bodyOf(60 * KB), headers, 200, 1);
    expect(journal.bytes).toBeLessThanOrEqual(journal.budget);
    expect(journal.budget).toBe(32 * MB);
    const pages = journal.list().map((e) => e.params.page as number);
    // 1,000 of 60 KB would be 60 MB: about half of them fit.
    expect(pages.length).toBeGreaterThan(300);
    expect(pages.length).toBeLessThan(600);
    expect(pages).toEqual(Array.from({ length: pages.length }, (_, k) => 3001 - pages.length + k));
    expect(journal.meta).toEqual({ total: 3000, dropped: 3000 - pages.length });
  });

  it('stays inside a budget given in bytes', () => {
    const journal = new Journal(100, { bytes: 256 * KB });
    for (let k = 0; k < 500; k++)
      journal.record('POST', `/p?page=${k}`, bodyOf(20 * KB), headers, 200, 1);
    expect(journal.bytes).toBeLessThanOrEqual(256 * KB);
    expect(journal.list().length).toBeGreaterThan(3);
  });

  it('grows no larger than small requests need', () => {
    const journal = new Journal(1000);
    for (let k = 0; k < 5000; k++)
      journal.record('GET', `/p?page=${k}`, undefined, headers, 200, 1);
    expect(journal.list()).toHaveLength(1000);
    expect(journal.bytes).toBeLessThanOrEqual(4 * MB);
  });

  it('refuses a size whose bookkeeping would take over half the budget', () => {
    expect(() => new Journal(100_000, { bytes: MB })).toThrow(/raise journalBytes/);
  });
});

describe('the journal lists whatever a client sent', () => {
  it('answers 200 after a query value 4,000 levels deep, keeping it as sent', async () => {
    const app = createApp({ data: fixtures, log: false });
    const deep = `${'['.repeat(4000)}${']'.repeat(4000)}`;
    await app.request(`/profiles/searching?x=${deep}`);
    await app.request(`/profiles/searching?x=${'['.repeat(4000)}`);
    const { status, body } = await listed(app);
    expect(status).toBe(200);
    expect(body.data.map((e) => e.params.x)).toEqual([deep, '['.repeat(4000)]);
  });

  it('answers 200 after a JSON body 100,000 levels deep, keeping it as text', async () => {
    const app = createApp({ data: fixtures, log: false });
    const body = `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    await app.request('/profiles/searching', { method: 'POST', body, headers });
    const { status, body: journal } = await listed(app);
    expect(status).toBe(200);
    expect(journal.data.map((e) => Object.keys(e.params))).toEqual([[]]);
    expect(nth(journal.data, 0).body?.startsWith('{"x":[[[[')).toBe(true);
  });
});

describe('the journal redacts secrets', () => {
  const keyed = () => createApp({ data: fixtures, log: false, apiKey: 'the-key-4417' });
  const sent = { 'X-API-KEY': 'the-key-4417', 'X-USER-EMAIL': 'me@example.com', ...headers };

  it('in parameters named like secrets, in the query and at any depth of a JSON body', async () => {
    const app = keyed();
    await app.request('/profiles/searching?access_token=tok-abc&x_api_key=key-def&limit=5', {
      method: 'POST',
      body: JSON.stringify({ auth: { password: 'pw-ghi', user: 'ann' }, source_keys: ['s'] }),
      headers: sent,
    });
    const { body } = await listed(app, { headers: sent });
    const entry = nth(body.data, 0);
    expect(entry.params).toMatchObject({
      access_token: '[redacted]',
      x_api_key: '[redacted]',
      limit: 5,
      auth: { password: '[redacted]', user: 'ann' },
    });
    expect(entry.headers['x-user-email']).toBe('[redacted]');
    expect(entry.headers['x-api-key']).toBe('[redacted]');
    for (const secret of ['tok-abc', 'key-def', 'pw-ghi', 'me@example.com'])
      expect(JSON.stringify(body)).not.toContain(secret);
  });

  it('wherever the configured key appears, under any name', async () => {
    const app = keyed();
    await app.request('/profiles/searching?text_keywords=the-key-4417', {
      headers: { ...sent, 'x-echo': 'the-key-4417' },
    });
    const { body } = await listed(app, { headers: sent });
    expect(JSON.stringify(body)).not.toContain('the-key-4417');
    expect(nth(body.data, 0).headers['x-echo']).toBe('[redacted]');
  });

  it('in a form body and a body cut to its limit, kept as text', () => {
    const journal = new Journal(10);
    journal.record('POST', '/p', 'password=hunter22&limit=5', headers, 415, 1);
    journal.record('POST', '/p', `{"token":"t-999","q":"${'q'.repeat(70 * KB)}"}`, headers, 200, 1);
    const [form, cut] = journal.list();
    expect(form?.body).toBe('password=[redacted]&limit=5');
    expect(cut?.body?.startsWith('{"token":"[redacted]","q":"qqq')).toBe(true);
  });
});
