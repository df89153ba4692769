import { describe, expect, it, vi } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { OutputPool } from '../../src/node/output-pool.ts';
import { startServer } from '../../src/node/server.ts';

describe('OutputPool', () => {
  it('gives buffers of the size asked for, never the same memory twice while taken', () => {
    const pool = new OutputPool();
    const taken = [1, 100, 4096, 4097, 50_000, 50_000, 1 << 20].map((size) => pool.take(size));
    expect(taken.map((b) => b.length)).toEqual([1, 100, 4096, 4097, 50_000, 50_000, 1 << 20]);
    const memories = new Set(taken.map((b) => b.buffer));
    expect(memories.size).toBe(taken.length);
  });

  it('makes the next answer of the same size class in a buffer given back', () => {
    const pool = new OutputPool();
    const first = pool.take(40_000);
    first.fill(7);
    pool.release(first);
    expect(pool.free).toBe(1);
    const second = pool.take(60_000);
    expect(second.buffer).toBe(first.buffer);
    expect(pool.free).toBe(0);
    // Another size class gets memory of its own.
    expect(pool.take(10_000).buffer).not.toBe(first.buffer);
  });

  it('keeps a buffer given back twice once, and ignores buffers it did not make', () => {
    const pool = new OutputPool();
    const mine = pool.take(5000);
    pool.release(mine);
    pool.release(mine);
    expect(pool.free).toBe(1);
    pool.release(Buffer.from('not from the pool'));
    pool.release(Buffer.alloc(4096));
    pool.release(Buffer.from(new ArrayBuffer(8192)));
    pool.release(pool.take(3 << 20));
    expect(pool.free).toBe(1);
    expect(pool.take(5000).buffer).toBe(mine.buffer);
    expect(pool.take(5000).buffer).not.toBe(mine.buffer);
  });

  it('keeps a bounded number of free buffers', () => {
    const pool = new OutputPool();
    const taken = Array.from({ length: 500 }, () => pool.take(20_000));
    for (const buffer of taken) pool.release(buffer);
    expect(pool.free).toBeGreaterThan(0);
    expect(pool.free).toBeLessThanOrEqual(64);
  });
});

describe('the listener’s pool, without an answer cache', () => {
  it('gives every buffer back once written, so sequential answers reuse the same memory', async () => {
    const fixtures = buildFixtures({ profiles: 200, jobs: 20 });
    const app = createApp({ data: fixtures, log: false });
    const server = await startServer(app, { answerCacheBytes: 0 });
    const take = vi.spyOn(OutputPool.prototype, 'take');
    try {
      const sourceKeys = fixtures.sources.map((s) => s.key);
      for (let page = 1; page <= 12; page++) {
        for (const encoding of ['gzip', 'identity']) {
          const response = await fetch(`${server.url}/profiles/searching`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'accept-encoding': encoding },
            body: JSON.stringify({ source_keys: sourceKeys, limit: 10, page }),
          });
          expect(response.status).toBe(200);
          await response.arrayBuffer();
        }
      }
      const made = take.mock.results.map((result) => (result.value as Buffer).buffer);
      // 24 answers made in the pool (gzip and plain), in a few buffers given back and taken again.
      expect(made.length).toBeGreaterThanOrEqual(24);
      expect(new Set(made).size).toBeLessThanOrEqual(4);
    } finally {
      take.mockRestore();
      await server.close();
    }
  });
});
