import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/engine/lru.ts';
import { RefIndex } from '../../src/engine/ref-index.ts';

describe('Lru', () => {
  it('forgets the least recently used entry, a hit on the newest one included', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    // b is the newest already: asked again, it stays the newest, a the oldest.
    expect(lru.get('b')).toBe(2);
    expect(lru.get('b')).toBe(2);
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('moves an older entry to the end when it is asked for', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3]);
    // c, then a, asked for again: b's place is taken by d and a is the oldest.
    expect(lru.get('a')).toBe(1);
    expect(lru.get('a')).toBe(1);
    lru.set('d', 4);
    expect([lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([1, undefined, 4]);
  });

  it('counts weights and forgets an entry heavier than the whole budget', () => {
    const lru = new Lru<string, number[]>({ maxEntries: 10, maxWeight: 3, weigh: (v) => v.length });
    lru.set('a', [1, 2]);
    lru.set('huge', [1, 2, 3, 4]);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('a')).toBeUndefined();
    lru.set('b', [1]);
    expect(lru.get('b')).toEqual([1]);
    expect(lru.size).toBe(1);
  });
});

describe('RefIndex', () => {
  it('finds by container and key across containers, in any order of lookups', () => {
    const index = new RefIndex<number>();
    index.set('s1', 'k1', 1);
    index.set('s1', 'k2', 2);
    index.set('s2', 'k1', 3);
    expect(index.find('s1', 'k1')).toBe(1);
    expect(index.find('s1', 'k2')).toBe(2);
    expect(index.find('s2', 'k1')).toBe(3);
    expect(index.find('s1', 'k1')).toBe(1);
    expect(index.find('s3', 'k1')).toBeUndefined();
    expect(index.find('s2', 'k2')).toBeUndefined();
    expect(index.get('s2/k1')).toBe(3);
  });

  it('sees a container added after it was looked up and not found', () => {
    const index = new RefIndex<number>();
    expect(index.find('s1', 'k1')).toBeUndefined();
    index.set('s1', 'k1', 1);
    expect(index.find('s1', 'k1')).toBe(1);
    index.set('s1', 'k2', 2);
    expect(index.find('s1', 'k2')).toBe(2);
  });
});
