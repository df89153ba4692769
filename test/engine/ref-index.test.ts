import { describe, expect, it } from 'vitest';
import { RefIndex } from '../../src/engine/ref-index.ts';

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
