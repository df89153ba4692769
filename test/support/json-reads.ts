import { at, isObject, type JsonObject } from '../../contract/suite/json-shape.ts';

/** `list[index]` where the test knows there is an item: throws, as reading past the end would. */
export function nth<T>(list: readonly T[], index: number): T {
  if (index < 0 || index >= list.length)
    throw new TypeError(`no item ${index} in a list of ${list.length}`);
  return list[index] as T;
}

/** The value as an object whose fields a test reads or sets: throws when it is not one. */
export function obj(value: unknown): JsonObject {
  if (!isObject(value)) throw new TypeError(`not an object: ${JSON.stringify(value)}`);
  return value;
}

/** The score `s` of entry `index`'s pair `[1 - s, s]`: throws when that entry has none. */
export function scoreAt(scores: readonly (readonly number[] | null)[], index: number): unknown {
  const pair = nth(scores, index);
  if (pair === null) throw new TypeError(`entry ${index} has no score`);
  return pair[1];
}

/** The object down a path of names, which the test knows is there: throws when it is not. */
export function objAt(value: unknown, ...path: string[]): JsonObject {
  const found = at(value, ...path);
  if (!isObject(found))
    throw new TypeError(`no object at ${path.join('.')}: ${JSON.stringify(found)}`);
  return found;
}

/** The list down a path of names, which the test knows is there: throws when it is not. */
export function listAt(value: unknown, ...path: string[]): unknown[] {
  const found = at(value, ...path);
  if (!Array.isArray(found))
    throw new TypeError(`no list at ${path.join('.')}: ${JSON.stringify(found)}`);
  return found;
}
