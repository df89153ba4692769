// Values as clients send them, read one at a time: JSON or Python literals, comma lists,
// name/value filters, coordinates. `ParamReader` (params.ts) applies them to named parameters.
import { fromPythonLiteral } from './python-literal.ts';

export const KEY_PATTERN = /^[0-9a-f]{40}$/;

export type ItemFilter = { name: string; value: string | null };
export type GeoPoint = { lat: number; lng: number };

/** Shows a received value in an error message, short enough to read. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : safeJson(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Cyclic or not serializable: say what it is without calling its (maybe missing) toString.
    return Object.prototype.toString.call(value);
  }
}

/**
 * Tries to read a string as JSON, or as the Python literal a client sends when it passes
 * `str(value)` for `json.dumps(value)`; a value that is neither stays a string.
 */
export function maybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const first = value.trimStart()[0];
  if (!opensJson(first)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    if (first === '"') return value;
    return fromPythonLiteral(value) ?? value;
  }
}

/** Whether `maybeJson` would try to read `text`: it starts, past spaces, with `[`, `{` or `"`. */
export function mayBeJsonText(text: string): boolean {
  return opensJson(text.trimStart()[0]);
}

function opensJson(first: string | undefined): boolean {
  return first === '[' || first === '{' || first === '"';
}

/** What `String(object)` gives: a client turned an object into text instead of encoding it. */
export const OBJECT_AS_TEXT = '[object Object]';

/**
 * Whether a raw value holds `text` in one of its strings, at any depth. Never `String()` of a
 * decoded object: objects from a query string have no prototype, so no `toString` either.
 */
export function holdsText(value: unknown, text: string, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(text);
  if (typeof value !== 'object' || value === null || depth > 8) return false;
  return Object.values(value).some((item) => holdsText(item, text, depth + 1));
}

/** Whether a character may be white space a client padded a value with (what `trim()` drops, and a few more). */
function spaceAt(code: number): boolean {
  return code <= 32 || code === 0xa0 || code === 0xfeff || (code >= 0x1680 && code <= 0x3000);
}

/**
 * A value without the white space at its ends (`limit= 10 `, `[" abc "]`): the string itself
 * when both ends are visible, the usual case, so that it costs two character reads.
 */
export function trimmed(text: string): string {
  const last = text.length - 1;
  return last >= 0 && (spaceAt(text.charCodeAt(0)) || spaceAt(text.charCodeAt(last)))
    ? text.trim()
    : text;
}

/** A string of white space only (not the empty string): once trimmed, a value left out. */
export function isBlank(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    spaceAt(value.charCodeAt(0)) &&
    value.trim() === ''
  );
}

/** Decimal notation as JSON writes a number (`-2.5`, `1e-3`), and `.5`; no `+`, hex or `_`. */
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A number sent as a number or as decimal text; anything else (`0x10`, `0b1`, `+5`, `1_000`,
 * `Infinity`, which `Number()` would read) is NaN.
 */
export function decimalNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const text = trimmed(value);
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

/** Text a programming language reads as a number but that is not decimal digits: `0x10`, `1e3`, `+5`, `1_000`, `10.0`, `Infinity`. */
export const NUMBER_LIKE = /^[-+]?(0[xXbBoO][\da-fA-F_]+|[\d_]*\.?[\d_]+([eE][-+]?\d+)?|Infinity)$/;

/** A plain `a,b,c` (what `URLSearchParams` makes of a list): its non-empty parts. */
export function commaParts(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export function isItemGroup(list: unknown[]): boolean {
  return list.some((v) => Array.isArray(v));
}

export function toItemFilter(entry: unknown): ItemFilter | null {
  const item = maybeJson(entry);
  if (typeof item === 'string' && item.trim() !== '' && !item.includes(OBJECT_AS_TEXT))
    return { name: item.trim(), value: null };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const { name, value } = item as { name?: unknown; value?: unknown };
  if (typeof name !== 'string' || name.trim() === '') return null;
  // Empty or blank is absent, as for any parameter (`qs` writes a null value as `skills[0][value]=`).
  if (value === undefined || value === null || value === '' || isBlank(value))
    return { name: name.trim(), value: null };
  // Numbers and booleans (`0.9`, `true`, as the SDKs' documentation sends) match as their text.
  if (typeof value === 'number' && Number.isFinite(value))
    return { name: name.trim(), value: String(value) };
  if (typeof value === 'boolean') return { name: name.trim(), value: String(value) };
  return typeof value === 'string' ? { name: name.trim(), value: trimmed(value) } : null;
}

/** `{lat, lng}` (or `lon`, the JS SDK's and Elasticsearch's spelling) within range, else null. */
export function toGeoPoint(raw: unknown): GeoPoint | null {
  const value = maybeJson(raw) as { lat?: unknown; lng?: unknown; lon?: unknown } | null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const lat = decimalNumber(value.lat);
  const lng = decimalNumber(value.lng ?? value.lon);
  const inRange = Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
  return Number.isFinite(lat) && Number.isFinite(lng) && inRange ? { lat, lng } : null;
}

const SPACED_OFFSET = /(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/;
const ISO_DATE =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or date-time as milliseconds since the epoch; anything else is NaN. A date
 * alone is its midnight UTC, and so is a date-time without an offset UTC, wherever the server runs.
 */
export function isoTime(raw: unknown): number {
  // An unencoded `+0000` reaches us as ` 0000` (a query string's `+` is a space): put it back.
  const text = typeof raw === 'string' ? raw.trim().replace(SPACED_OFFSET, '$1+$2') : '';
  const parts = ISO_DATE.exec(text);
  if (parts === null) return Number.NaN;
  const [, date, time, offset] = parts;
  if (time === undefined) return Date.parse(date as string);
  // Written as ECMAScript's own date-time format, which every engine reads the same way.
  const zone =
    offset === undefined || offset.toUpperCase() === 'Z'
      ? 'Z'
      : offset.length === 5
        ? `${offset.slice(0, 3)}:${offset.slice(3)}`
        : offset;
  return Date.parse(`${date}T${time}${zone}`);
}
