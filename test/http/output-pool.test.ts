import { describe, expect, it } from 'vitest';
import { OutputPool } from '../../src/http/output-pool.ts';

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
