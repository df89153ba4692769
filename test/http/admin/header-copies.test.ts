import { describe, expect, it } from 'vitest';
import { HeaderCopies } from '../../../src/http/admin/header-copies.ts';
import { Redaction } from '../../../src/http/redaction.ts';

const headers = (extra: Record<string, string> = {}) => ({
  host: '127.0.0.1:4010',
  'x-api-key': 'sekret',
  'x-client': 'me',
  ...extra,
});

describe('header copies', () => {
  it('gives one object for a run of requests that send the same headers', () => {
    const copies = new HeaderCopies();
    const a = copies.copy(headers());
    const b = copies.copy(headers());
    expect(b).toBe(a);
    expect(a['x-api-key']).toBe('[redacted]');
  });

  it('gives a new object when any name or value differs, or one is missing', () => {
    const copies = new HeaderCopies();
    const a = copies.copy(headers());
    const b = copies.copy(headers({ 'x-client': 'you' }));
    const c = copies.copy(headers({ prefer: 'example=empty' }));
    const { host } = headers();
    const d = copies.copy({ host });
    expect(b).not.toBe(a);
    expect(b['x-client']).toBe('you');
    expect(c.prefer).toBe('example=empty');
    expect(d).toEqual({ host });
  });

  it('redacts the same with a Headers object (the Hono path) and named headers', () => {
    const copies = new HeaderCopies(new Redaction({ headers: ['X-Tenant'] }));
    const sent = new Headers({ 'x-tenant': 't1', authorization: 'Bearer t', accept: '*/*' });
    expect(copies.copy(sent)).toEqual({
      accept: '*/*',
      authorization: '[redacted]',
      'x-tenant': '[redacted]',
    });
  });

  it('joins a repeated header into one value', () => {
    expect(new HeaderCopies().copy({ accept: ['a/b', 'c/d'] })).toEqual({ accept: 'a/b, c/d' });
  });
});
