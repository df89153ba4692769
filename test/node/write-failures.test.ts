import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';

/** A value nested far deeper than any JSON writer recurses. */
function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const data = buildFixtures({ profiles: 40, jobs: 10 });
const broken = data.profiles[0] as unknown as Record<string, unknown>;
broken.metadatas = [{ name: 'deep', value: nested(200_000) }];
const logged: string[] = [];
const app = createApp({ data, log: (line) => logged.push(line) });
const brokenKey = broken.key as string;
const source = broken.source_key as string;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(app, { answerCacheBytes: 0 });
});
afterAll(async () => {
  await server?.close();
});

function searching(): string {
  const query = new URLSearchParams({
    source_keys: JSON.stringify([source]),
    limit: '100',
  });
  return `${server.url}/profiles/searching?${query}`;
}

describe('an answer that cannot be written', () => {
  it('is a 500 envelope on the fast path, logged as 500, and the server goes on', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      logged.length = 0;
      const response = await fetch(searching());
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = await response.json();
      expect(body.code).toBe(500);
      expect(body.message).toContain('Internal server error');
      expect(logged.some((line) => line.includes('/profiles/searching 500'))).toBe(true);
      expect(logged.some((line) => line.includes(' 200 '))).toBe(false);
    } finally {
      stderr.mockRestore();
    }
    const fine = await fetch(
      `${server.url}/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify([source]))}&text_keywords=${encodeURIComponent(JSON.stringify([`no-such-word-${brokenKey}`]))}`,
    );
    expect(fine.status).toBe(200);
  });

  it('is a 500 envelope through the app as well', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const response = await fetch(searching(), { headers: { Prefer: 'delay=1' } });
      expect(response.status).toBe(500);
      expect((await response.json()).code).toBe(500);
    } finally {
      stderr.mockRestore();
    }
  });
});
