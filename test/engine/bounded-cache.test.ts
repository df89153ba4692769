import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/engine/bounded-cache.ts';

const keysOf = <V>(cache: BoundedCache<string, V>, keys: string[]) =>
  keys.filter((key) => cache.peek(key) !== undefined);

describe('BoundedCache', () => {
  it('forgets the least recently used entry, a hit on the newest one included', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    // b is the newest already: asked again, it stays the newest, a the oldest.
    expect(cache.get('b')).toBe(2);
    expect(cache.get('b')).toBe(2);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('moves an older entry to the end when it is asked for', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    // c, then a, asked for last: a is the newest and c is forgotten for d.
    expect(cache.get('a')).toBe(1);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, undefined, 4]);
  });

  it('keeps exact recency over many hits and sets', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) cache.set(key, 0);
    for (const key of ['a', 'a', 'b', 'a', 'c', 'b']) cache.get(key);
    // Used last: a, c, b; the oldest of them is a.
    cache.set('d', 0);
    expect(keysOf(cache, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
  });

  it('leaves the order alone on peek and on a miss', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.peek('a')).toBe(1);
    expect(cache.get('zz')).toBeUndefined();
    cache.set('c', 3);
    expect(keysOf(cache, ['a', 'b', 'c'])).toEqual(['b', 'c']);
  });

  it('with getIf, returns and moves only a value that matches the probe', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 2 });
    const same = (value: string, probe: string) => value === probe;
    cache.set('a', 'x');
    cache.set('b', 'y');
    expect(cache.getIf('a', same, 'other')).toBeUndefined();
    cache.set('c', 'z');
    expect(keysOf(cache, ['a', 'b', 'c'])).toEqual(['b', 'c']);
    expect(cache.getIf('b', same, 'y')).toBe('y');
    cache.set('d', 'w');
    expect(keysOf(cache, ['b', 'c', 'd'])).toEqual(['b', 'd']);
  });

  it('replaces the value of a key set again, as the newest, counted once', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2, maxCost: 10 });
    cache.set('a', 1, 4);
    cache.set('b', 2, 4);
    cache.set('a', 3, 5);
    expect(cache.size).toBe(2);
    expect(cache.cost).toBe(9);
    cache.set('c', 4, 1);
    expect(keysOf(cache, ['a', 'b', 'c'])).toEqual(['a', 'c']);
    expect(cache.peek('a')).toBe(3);
  });

  it('counts costs and forgets an entry heavier than the whole budget', () => {
    const cache = new BoundedCache<string, number[]>({
      maxEntries: 10,
      maxCost: 3,
      costOf: (v) => v.length,
    });
    cache.set('a', [1, 2]);
    cache.set('huge', [1, 2, 3, 4]);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', [1]);
    expect(cache.get('b')).toEqual([1]);
    expect(cache.size).toBe(1);
    expect(cache.cost).toBe(1);
  });

  it('takes a cost given to set over the costOf option', () => {
    const cache = new BoundedCache<string, string>({ maxCost: 10, costOf: (v) => v.length });
    cache.set('a', 'xyz', 8);
    expect(cache.cost).toBe(8);
    cache.set('b', 'xyz');
    expect(keysOf(cache, ['a', 'b'])).toEqual(['b']);
    expect(cache.cost).toBe(3);
  });

  it('forgets the oldest entries when an entry is counted again at a higher cost', () => {
    const cache = new BoundedCache<string, number>({ maxCost: 10 });
    cache.set('a', 1, 3);
    cache.set('b', 2, 3);
    cache.set('c', 3, 3);
    cache.recost('c', 6);
    expect(keysOf(cache, ['a', 'b', 'c'])).toEqual(['b', 'c']);
    expect(cache.cost).toBe(9);
    cache.recost('missing', 100);
    expect(cache.cost).toBe(9);
  });

  it('forgets an entry on delete and everything on clear, costs included', () => {
    const cache = new BoundedCache<string, number>({ maxCost: 10 });
    cache.set('a', 1, 3);
    cache.set('b', 2, 4);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect([cache.size, cache.cost]).toEqual([1, 4]);
    cache.clear();
    expect([cache.size, cache.cost, cache.peek('b')]).toEqual([0, 0, undefined]);
  });

  it('makes a missing value once with getOr, a null one included', () => {
    const cache = new BoundedCache<string, number | null>({ maxEntries: 4 });
    let made = 0;
    const produce = () => {
      made++;
      return null;
    };
    expect(cache.getOr('a', produce)).toBeNull();
    expect(cache.getOr('a', produce)).toBeNull();
    expect(made).toBe(1);
  });

  it('has no bound when given none', () => {
    const cache = new BoundedCache<number, number>({});
    for (let i = 0; i < 1000; i++) cache.set(i, i, 1_000);
    expect([cache.size, cache.cost]).toEqual([1000, 1_000_000]);
  });

  it('with a loose order, leaves an entry used lately in place and moves an older one', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 4, looseOrder: true });
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 0);
    // b was set 3 uses before it is read, more than size / 2: moved. d, 2 uses before: left.
    cache.get('b');
    cache.get('d');
    cache.set('e', 0);
    cache.set('f', 0);
    expect(keysOf(cache, ['a', 'b', 'c', 'd', 'e', 'f'])).toEqual(['b', 'd', 'e', 'f']);
  });

  it('with a loose order, keeps an entry that is read often', () => {
    const cache = new BoundedCache<number, number>({ maxEntries: 8, looseOrder: true });
    cache.set(-1, 0);
    for (let i = 0; i < 100; i++) {
      expect(cache.get(-1)).toBe(0);
      cache.set(i, i);
    }
    expect(cache.peek(-1)).toBe(0);
  });
});
