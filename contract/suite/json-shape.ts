/**
 * Reading answers whose shape is not known yet: JSON values as `unknown`, narrowed here. Each
 * reader reads as JavaScript reads parsed JSON, so a rule concludes the same through them.
 */

/** A JSON object, its fields not known yet. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a JSON object (not an array, not null). */
export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

/** The value when it is a JSON array. */
export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** `value?.a?.b`: the field down a path of names, undefined once a step is not an object. */
export function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const name of path) current = asObject(current)?.[name];
  return current;
}

/**
 * `value.name`: a field of an object, undefined on any other value; null and undefined have no
 * fields, and reading one throws.
 */
export function field(value: unknown, name: string): unknown {
  if (value === null || value === undefined)
    throw new TypeError(`Cannot read properties of ${value} (reading '${name}')`);
  return asObject(value)?.[name];
}

/** `value ?? []` read as a list: absent is empty, and a value that is not a list throws. */
export function toList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`not a list: ${typeof value}`);
  return value;
}
