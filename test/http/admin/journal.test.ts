import { describe, expect, it } from 'vitest';
import { Journal } from '../../../src/http/admin/journal.ts';
import { waitForEntry } from '../../../src/http/admin/journal-wait.ts';

const headers = (extra: Record<string, string> = {}) => ({
  host: '127.0.0.1:4010',
  'x-api-key': 'sekret',
  'x-user-email': 'me@example.com',
  ...extra,
});

const urls = (journal: Journal) => journal.list().map((e) => `${e.path}:${e.params.page}`);

describe('the journal', () => {
  it('lists what was recorded, oldest first, with secrets redacted', () => {
    const journal = new Journal(10);
    journal.record('GET', '/profiles/searching?page=1', undefined, headers(), 200, 1.25);
    journal.record('GET', '/profiles/searching?page=2', undefined, headers(), 404, 2);
    const [first, second] = journal.list();
    expect(first).toMatchObject({ id: 1, method: 'GET', status: 200, ms: 1.3, scenario: null });
    expect(first?.params).toEqual({ page: 1 });
    expect(first?.headers['x-api-key']).toBe('[redacted]');
    expect(second).toMatchObject({ id: 2, status: 404, operation: 'searchProfiles' });
  });

  it('keeps the last `size` requests and counts the others as dropped', () => {
    const journal = new Journal(3);
    for (let page = 1; page <= 5; page++)
      journal.record('GET', `/p?page=${page}`, undefined, headers(), 200, 1);
    expect(urls(journal)).toEqual(['/p:3', '/p:4', '/p:5']);
    expect(journal.meta).toEqual({ total: 5, dropped: 2 });
  });

  it('adds the answer and the body read later to an entry in flight', () => {
    const journal = new Journal(10);
    const id = journal.record('POST', '/jobs/scoring', undefined, headers());
    expect(journal.list()[0]).toMatchObject({ status: null, ms: null });
    journal.finish(id, 201, 3, 'sc-1', '{"page":7}');
    expect(journal.list()[0]).toMatchObject({ status: 201, ms: 3, scenario: 'sc-1' });
    expect(journal.list()[0]?.params).toEqual({ page: 7 });
  });

  it('finishes nothing once the ring has gone past an entry', () => {
    const journal = new Journal(2);
    const id = journal.record('GET', '/p?page=1', undefined, headers());
    journal.record('GET', '/p?page=2', undefined, headers(), 200, 1);
    journal.record('GET', '/p?page=3', undefined, headers(), 200, 1);
    journal.finish(id, 500, 1);
    expect(journal.list().map((e) => e.status)).toEqual([200, 200]);
  });

  it('reads bodies given as bytes or text, UTF-8 included', () => {
    const journal = new Journal(10);
    const text = '{"name":"Zoë Ångström 東京"}';
    journal.record('POST', '/p', Buffer.from(text), headers(), 200, 1);
    journal.record('POST', '/p', text, headers(), 200, 1);
    expect(journal.list().map((e) => e.params.name)).toEqual([
      'Zoë Ångström 東京',
      'Zoë Ångström 東京',
    ]);
  });

  it('keeps a URL or body too large for its byte log whole', () => {
    const journal = new Journal(10);
    const long = 'x'.repeat(40_000);
    // Fewer characters than a quarter of the log (16 KB), more bytes: found out by writing.
    const wide = 'é'.repeat(10_000);
    journal.record('GET', `/p?name=${wide}`, undefined, headers(), 200, 1);
    journal.record('GET', `/p?name=${long}`, undefined, headers(), 200, 1);
    journal.record('POST', '/p', `{"name":"${long}"}`, headers(), 200, 1);
    journal.record('POST', '/p', `{"name":"${wide}"}`, headers(), 200, 1);
    expect(journal.list().map((e) => (e.params.name as string).length)).toEqual([
      10_000, 40_000, 40_000, 10_000,
    ]);
  });

  it('drops the oldest entries when large requests fill its budget before the ring', () => {
    // A budget of 64 KB; 10 URLs of 12 KB go round it.
    const journal = new Journal(10, { bytes: 64 * 1024 });
    for (let page = 1; page <= 10; page++)
      journal.record('GET', `/p?page=${page}&q=${'y'.repeat(12_000)}`, undefined, {}, 200, 1);
    const kept = journal.list().map((e) => e.params.page);
    expect(kept.length).toBeGreaterThan(2);
    expect(kept.length).toBeLessThan(10);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, k) => 11 - kept.length + k));
    expect(journal.meta).toEqual({ total: 10, dropped: 10 - kept.length });
  });

  it('hands out copies: changing a listed entry changes nothing kept', () => {
    const journal = new Journal(10);
    journal.record('GET', '/p', undefined, headers(), 200, 1);
    journal.record('GET', '/q', undefined, headers(), 200, 1);
    const [first] = journal.list();
    if (first !== undefined) first.headers.host = 'changed';
    expect(journal.list().map((e) => e.headers.host)).toEqual(['127.0.0.1:4010', '127.0.0.1:4010']);
  });

  it('empties on clear and goes on counting ids', () => {
    const journal = new Journal(4);
    journal.record('GET', '/p?page=1', undefined, headers(), 200, 1);
    journal.clear();
    expect(journal.list()).toEqual([]);
    expect(journal.meta).toEqual({ total: 0, dropped: 0 });
    journal.record('GET', '/p?page=2', undefined, headers(), 200, 1);
    expect(journal.list().map((e) => e.id)).toEqual([2]);
  });

  it('tells a waiter of a request answered later, even when it keeps none', async () => {
    const journal = new Journal(0);
    const waited = waitForEntry(journal, { path: '/jobs/scoring' }, 1000, false);
    const id = journal.record('POST', '/jobs/scoring', undefined, headers());
    journal.finish(id, 200, 4, null, '{"board_key":"b"}');
    const entry = await waited;
    expect(entry).toMatchObject({ id, status: 200, params: { board_key: 'b' } });
    expect(entry.headers['x-api-key']).toBe('[redacted]');
    expect(journal.list()).toEqual([]);
  });
});
