import { describe, expect, it } from 'vitest';
import { Journal } from '../../../src/http/admin/journal.ts';

const headers = (extra: Record<string, string> = {}) => ({
  host: '127.0.0.1:4010',
  'x-api-key': 'sekret',
  'x-user-email': 'me@example.com',
  ...extra,
});

describe('the journal', () => {
  it('keeps one headers object for requests that send the same headers', () => {
    const journal = new Journal(10);
    const a = journal.record('GET', '/profiles/searching?page=1', undefined, headers(), 200, 1);
    const b = journal.record('GET', '/profiles/searching?page=2', undefined, headers(), 200, 1);
    expect(b.headers).toBe(a.headers);
    expect(a.headers['x-api-key']).toBe('[redacted]');
  });

  it('keeps new headers when any name or value differs, or one is missing', () => {
    const journal = new Journal(10);
    const a = journal.record('GET', '/p', undefined, headers(), 200, 1);
    const b = journal.record(
      'GET',
      '/p',
      undefined,
      headers({ 'x-user-email': 'you@x.org' }),
      200,
      1,
    );
    const c = journal.record('GET', '/p', undefined, headers({ prefer: 'example=empty' }), 200, 1);
    const { host } = headers();
    const d = journal.record('GET', '/p', undefined, { host }, 200, 1);
    expect(b.headers).not.toBe(a.headers);
    expect(b.headers['x-user-email']).toBe('you@x.org');
    expect(c.headers.prefer).toBe('example=empty');
    expect(d.headers).toEqual({ host });
    expect(journal.list().map((e) => e.headers['x-user-email'])).toEqual([
      'me@example.com',
      'you@x.org',
      'me@example.com',
      undefined,
    ]);
  });

  it('hands out copies: changing a listed entry changes nothing kept', () => {
    const journal = new Journal(10);
    journal.record('GET', '/p', undefined, headers(), 200, 1);
    journal.record('GET', '/q', undefined, headers(), 200, 1);
    const [first] = journal.list();
    if (first !== undefined) first.headers['x-user-email'] = 'changed';
    expect(journal.list().map((e) => e.headers['x-user-email'])).toEqual([
      'me@example.com',
      'me@example.com',
    ]);
  });

  it('redacts the same with a Headers object (the Hono path)', () => {
    const journal = new Journal(10, ['X-Session']);
    const sent = new Headers({ 'x-session': 's1', authorization: 'Bearer t', accept: '*/*' });
    const a = journal.record('POST', '/jobs/scoring', '{}', sent, 200, 1);
    expect(a.headers).toEqual({
      accept: '*/*',
      authorization: '[redacted]',
      'x-session': '[redacted]',
    });
  });
});
