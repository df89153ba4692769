import { describe, expect, it } from 'vitest';
import { ByteSlabs } from '../../src/engine/byte-slabs.ts';

describe('ByteSlabs', () => {
  it('keeps runs side by side in shared slabs, none overwriting another, large ones apart', () => {
    const slabs = new ByteSlabs(64 * 1024);
    const runs = Array.from({ length: 2000 }, (_, i) => {
      // Every hundredth run is larger than a slab keeps (1/16 of one): an array of its own.
      const bytes = Uint8Array.from(
        { length: i % 100 === 0 ? 5000 : 1 + (i % 300) },
        (_, k) => (i * 31 + k) % 251,
      );
      return { bytes, kept: slabs.keep(bytes) };
    });
    for (const { bytes, kept } of runs) expect(kept).toEqual(bytes);
    const large = runs.filter((_, i) => i % 100 === 0).map(({ kept }) => kept.buffer);
    for (const memory of large) expect(memory.byteLength).toBe(5000);
    const shared = new Set(runs.filter((_, i) => i % 100 !== 0).map(({ kept }) => kept.buffer));
    // ~300 KB of short runs: a handful of 64 KB slabs, not one array per run.
    expect(shared.size).toBeLessThan(10);
    for (const memory of shared) expect(memory.byteLength).toBe(64 * 1024);
  });

  it('starts each run on 8 bytes, as the allocator would place it', () => {
    const slabs = new ByteSlabs(4096);
    for (let size = 1; size < 40; size++) expect(slabs.take(size).byteOffset % 8).toBe(0);
  });
});
