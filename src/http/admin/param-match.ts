import { maybeJson } from '../../hr/param-values.ts';
import type { RawParams } from '../../hr/params.ts';

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A raw parameter value as the operations read it: JSON text decoded (`'["a"]'` → `["a"]`),
 * numbers as numbers, `true`/`false` as booleans; a query's repeated key stays a list.
 */
export function decodeValue(value: unknown): unknown {
  const decoded = maybeJson(value);
  if (typeof decoded === 'string') {
    if (NUMBER.test(decoded) && decoded.length < 16) return Number(decoded);
    if (decoded === 'true') return true;
    if (decoded === 'false') return false;
    return decoded;
  }
  if (Array.isArray(decoded)) return decoded.map(decodeValue);
  return decoded;
}

/** Every parameter decoded, as a plain object (keys such as `__proto__` stay data). */
export function decodeParams(raw: RawParams): Record<string, unknown> {
  const params: Record<string, unknown> = Object.create(null);
  for (const [name, value] of raw) params[name] = decodeValue(value);
  return params;
}

/** Whether the request's parameters hold every wanted one with its value, both decoded. */
export function paramsMatch(wanted: Map<string, string>, raw: RawParams): boolean {
  for (const [name, value] of wanted) {
    if (!raw.has(name)) return false;
    if (canonical(decodeValue(raw.get(name))) !== value) return false;
  }
  return true;
}

/** One text per decoded value, so that `"5"` and `5`, `"true"` and `true` compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(decodeValue(value)) ?? 'null';
}
