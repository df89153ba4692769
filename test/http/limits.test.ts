import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { startServer } from '../../src/node/server.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { post, send } from '../support/mock-app.ts';

const fixtures = buildFixtures({ profiles: 60, jobs: 20 });
const sourceKeys = fixtures.sources.map((s) => s.key);
const app = createApp({
  data: fixtures,
  log: false,
  limits: { bodyBytes: 2_000, urlBytes: 600, jsonDepth: 5 },
});

/** A searching body of exactly `bytes` bytes: the sources and an ignored parameter to pad it. */
function bodyOfBytes(bytes: number): string {
  const bare = JSON.stringify({ source_keys: sourceKeys, pad: '' });
  return JSON.stringify({ source_keys: sourceKeys, pad: 'x'.repeat(bytes - bare.length) });
}

/** A searching path and query of exactly `bytes` bytes, padded the same way. */
function urlOfBytes(bytes: number): string {
  const bare = `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify(sourceKeys))}&pad=`;
  return `${bare}${'y'.repeat(bytes - bare.length)}`;
}

describe('configured limits', () => {
  it('takes a body of exactly the configured size and answers 413 one byte over', async () => {
    const at = bodyOfBytes(2_000);
    const over = bodyOfBytes(2_001);
    expect(Buffer.byteLength(at)).toBe(2_000);
    expect(Buffer.byteLength(over)).toBe(2_001);
    expect((await post(app, '/profiles/searching', at)).status).toBe(200);
    const { status, body } = await post<ErrorAnswer>(app, '/profiles/searching', over);
    expect(status).toBe(413);
    expect(body.message).toMatch(/2000 bytes/);
  });

  it('takes a URL of exactly the configured length and answers 414 one byte over, pointing at POST', async () => {
    const at = urlOfBytes(600);
    const over = urlOfBytes(601);
    expect(Buffer.byteLength(at)).toBe(600);
    expect((await send(app, at)).status).toBe(200);
    const { status, body } = await send<ErrorAnswer>(app, over);
    expect(status).toBe(414);
    expect(body.message).toMatch(/limit is 600.*POST/);
  });

  it('holds both limits at the same byte on a port, fast path and cache included', async () => {
    const server = await startServer(app);
    try {
      for (let i = 0; i < 2; i++) {
        const post = (body: string) =>
          fetch(`${server.url}/profiles/searching`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
        expect((await post(bodyOfBytes(2_000))).status).toBe(200);
        expect((await post(bodyOfBytes(2_001))).status).toBe(413);
        expect((await fetch(`${server.url}${urlOfBytes(600)}`)).status).toBe(200);
        expect((await fetch(`${server.url}${urlOfBytes(601)}`)).status).toBe(414);
      }
    } finally {
      await server.close();
    }
  });

  it('answers 400 above the configured JSON depth', async () => {
    const { status, body } = await post<ErrorAnswer>(
      app,
      '/profiles/searching',
      `{"source_keys": ${JSON.stringify(sourceKeys)}, "x": [[[[[1]]]]]}`,
    );
    expect(status).toBe(400);
    expect(body.message).toMatch(/deeper than 5/);
  });

  it('takes JSON exactly at the configured depth', async () => {
    const { status } = await post(
      app,
      '/profiles/searching',
      `{"source_keys": ${JSON.stringify(sourceKeys)}, "x": [[[1]]]}`,
    );
    expect(status).toBe(200);
  });
});
