import { maybeJson } from '../../hr/param-values.ts';
import type { RawParams } from '../../hr/params.ts';
import { jsonDepth } from '../request-params.ts';

const NUMBER = /^-?\d+(\.\d+)?$/;

/** The deepest value decoded; a deeper one is kept as sent (the mock's default JSON depth). */
export const MAX_DECODED_DEPTH = 64;

/**
 * A raw parameter value as the operations read it: JSON text decoded (`'["a"]'` → `["a"]`),
 * numbers as numbers, `true`/`false` as booleans; a query's repeated key stays a list. A value
 * nesting deeper than MAX_DECODED_DEPTH is kept as it came (raw text stays text).
 */
export function decodeValue(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && tooDeep(value)) return value;
  return decoded(value);
}

function decoded(value: unknown): unknown {
  const parsed = maybeJson(value);
  if (parsed !== value && typeof parsed === 'object' && parsed !== null && tooDeep(parsed))
    return value;
  if (typeof parsed === 'string') {
    if (NUMBER.test(parsed) && parsed.length < 16) return Number(parsed);
    if (parsed === 'true') return true;
    if (parsed === 'false') return false;
    return parsed;
  }
  if (Array.isArray(parsed)) return parsed.map(decoded);
  return parsed;
}

function tooDeep(value: object): boolean {
  return jsonDepth(value, MAX_DECODED_DEPTH) > MAX_DECODED_DEPTH;
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
