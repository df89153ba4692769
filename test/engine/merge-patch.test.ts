import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../src/engine/merge-patch.ts';

describe('mergePatch (RFC 7396)', () => {
  // RFC 7396, Appendix A: every example, as [target, patch, result].
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('patches %j with %j into %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('removes a member patched with null', () => {
    expect(mergePatch({ code: 200, meta: { page: 1 } }, { meta: null })).toEqual({ code: 200 });
  });

  it('merges nested objects, keeping the members the patch does not name', () => {
    const target = { data: { profiles: [{ key: 'a' }], total: 1 }, code: 200 };
    expect(mergePatch(target, { data: { total: 9 } })).toEqual({
      data: { profiles: [{ key: 'a' }], total: 9 },
      code: 200,
    });
  });

  it('replaces an array whole, never merging into its items', () => {
    const target = { profiles: [{ key: 'a', name: 'A' }, { key: 'b' }] };
    expect(mergePatch(target, { profiles: [{ name: 'Z' }] })).toEqual({
      profiles: [{ name: 'Z' }],
    });
  });

  it('replaces the whole target with a patch that is not an object', () => {
    expect(mergePatch({ a: 1 }, 42)).toBe(42);
    expect(mergePatch({ a: 1 }, [1, 2])).toEqual([1, 2]);
  });

  it('changes neither argument', () => {
    const target = { a: { b: 1 } };
    const patch = { a: { b: null, c: 2 } };
    mergePatch(target, patch);
    expect(target).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { b: null, c: 2 } });
  });

  it('keeps a member named __proto__ as a member', () => {
    const patched = mergePatch({}, JSON.parse('{"__proto__": {"x": 1}}')) as object;
    expect(Object.keys(patched)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('reads members of its own only, never the prototype’s (toString, constructor)', () => {
    expect(mergePatch({ toString: 'kept' }, { constructor: { a: 1 } })).toEqual({
      toString: 'kept',
      constructor: { a: 1 },
    });
    expect(mergePatch({}, { toString: null })).toEqual({});
  });
});
