import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../src/api/start-mock.ts';
import { createApp } from '../../src/http/app.ts';
import { closest, documentedParams } from '../../src/http/unknown-params.ts';
import { mockApp, query } from '../support/mock-app.ts';

const { app, fixtures } = mockApp();
const sourceKeys = fixtures.sources.map((s) => s.key);
const searching = (params: Record<string, unknown>) =>
  `/profiles/searching?${query({ source_keys: sourceKeys, limit: 2, ...params })}`;
const warningOf = (response: Response) => response.headers.get('x-hrmock-warning');

describe('X-Hrmock-Warning names parameters the operation does not document', () => {
  it('names a misspelt query parameter and the documented one it is closest to', async () => {
    const response = await app.request(searching({ text_keyword: 'python' }));
    expect(response.status).toBe(200);
    expect(warningOf(response)).toBe(
      'unknown parameter "text_keyword"; did you mean "text_keywords"?',
    );
  });

  it('sends no warning when every parameter is documented', async () => {
    const response = await app.request(searching({ text_keywords: 'python' }));
    expect(warningOf(response)).toBeNull();
  });

  it('names an unknown parameter with nothing close alone', async () => {
    const response = await app.request(searching({ zzqx: '1' }));
    expect(warningOf(response)).toBe('unknown parameter "zzqx"');
  });

  it('names a misspelt member of a POST body', async () => {
    const response = await app.request('/profiles/searching', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ source_keys: sourceKeys, limit: 2, order_by: 'asc', sortby: 'x' }),
    });
    expect(response.status).toBe(200);
    expect(warningOf(response)).toBe('unknown parameter "sortby"; did you mean "sort_by"?');
  });

  it('keeps the status of an error and warns on it too', async () => {
    const response = await app.request(
      `/profiles/searching?${query({ source_key: sourceKeys[0] })}`,
    );
    expect(response.status).toBe(400);
    expect(warningOf(response)).toContain('did you mean "source_keys"?');
  });

  it('lists several unknown names in one bounded warning', async () => {
    const extra = Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [`x${i}${'y'.repeat(200)}`, '1']),
    );
    const response = await app.request(searching({ text_keyword: 'a', ...extra }));
    const warning = warningOf(response) ?? '';
    expect(warning).toMatch(
      /^unknown parameters "text_keyword" \(did you mean "text_keywords"\?\), /,
    );
    expect(warning).toContain('and 5 more');
    expect(warning.length).toBeLessThan(600);
  });

  it('shows a name of any character as printable ASCII', async () => {
    const response = await app.request(searching({ 'tëx\u0007t': '1' }));
    expect(warningOf(response)).toMatch(/^unknown parameter "t\\u00ebx\\u0007t"/);
  });

  it('writes the warning on the request log line', async () => {
    const lines: string[] = [];
    const logged = createApp({ data: fixtures, log: (line) => lines.push(line) });
    await logged.request(searching({ text_keyword: 'python' }));
    expect(lines[0]).toMatch(
      /^GET \/profiles\/searching 200 [\d.]+ms \(unknown parameter "text_keyword"; did you mean "text_keywords"\?\)$/,
    );
  });
});

describe('documented names come from the contract', () => {
  it('reads query names for GET and body members (and the query) for POST', () => {
    expect(documentedParams('GET', '/profiles/grading').has('return_profile')).toBe(true);
    expect(documentedParams('GET', '/profiles/grading').has('text_keywords')).toBe(false);
    expect(documentedParams('POST', '/jobs/scoring').has('board_keys')).toBe(true);
  });

  it('suggests only a close name: two edits, or a prefix', () => {
    const names = documentedParams('GET', '/profiles/searching');
    expect(closest('skils', names)).toBe('skills');
    expect(closest('experiences_duration', names)).toMatch(/^experiences_duration_m(in|ax)$/);
    expect(closest('banana', names)).toBeUndefined();
  });
});

describe('the warning on a port (fast path and answer cache)', () => {
  let mock: RunningMock;
  const lines: string[] = [];

  beforeAll(async () => {
    mock = await startMock({ profiles: 60, jobs: 20, log: (line) => lines.push(line) });
  });
  afterAll(() => mock.close());

  it('is on every answer to a misspelt request and never on a clean one, cached or not', async () => {
    const base = `${mock.url}/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 2 })}`;
    const misspelt = `${base}&text_keyword=a`;
    const order = [base, misspelt, misspelt, base, base, misspelt];
    for (const url of order) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-hrmock-warning'), url).toBe(
        url === misspelt ? 'unknown parameter "text_keyword"; did you mean "text_keywords"?' : null,
      );
    }
    const warned = lines.filter((line) => line.includes('did you mean "text_keywords"'));
    expect(warned).toHaveLength(3);
  });

  it('is on a POST answered twice', async () => {
    const body = JSON.stringify({ source_keys: mock.target.profiles.source_keys, limt: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${mock.url}/profiles/searching`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      expect(response.headers.get('x-hrmock-warning')).toBe(
        'unknown parameter "limt"; did you mean "limit"?',
      );
    }
  });
});
