// Values as the contract (contract/openapi.yaml, info.description and each parameter) lets
// clients send them, read plainly: the reference's own reading, sharing nothing with src/hr.

/**
 * Parameters as the operations take them: from a query string a string, or a list of strings
 * when the key was repeated (bracket forms already turned into lists and objects); from a JSON
 * body any JSON value.
 */
export type Raw = Map<string, unknown>;
export type Point = { lat: number; lng: number };
/** A skill, language, interest or tag filter; `value: null` matches any value. */
export type Named = { name: string; value: string | null };

export const KEY = /^[0-9a-f]{40}$/;
const BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };
const DECIMAL = /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
/** The contract's DateOrDateTime pattern: a date, then maybe a time, then maybe an offset. */
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)([Zz]|[-+ ]\d{2}:?\d{2})?)?$/;

/** JSON text (what starts with `[`, `{` or `"`) decoded; any other value as it is. */
export function decoded(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{"]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    // Python literals (`['a']`, `True`) are in the contract too, but not in this small reading:
    // a test that sends one must not be compared against a guess. Other text stays text.
    if (/^\s*[[{]/.test(value) && /'|\bTrue\b|\bFalse\b|\bNone\b|\(/.test(value))
      throw new Error(`the reference does not read Python literals: ${value}`);
    return value;
  }
}

/**
 * Reads one request's parameters, noting the name of each wrong one: the contract answers a
 * 400 naming every invalid parameter, so reading goes on past the first.
 */
export class Reading {
  readonly wrong: string[] = [];
  readonly raw: Raw;

  constructor(raw: Raw) {
    this.raw = raw;
  }

  /** A parameter sent empty (`order_by=`) or as `null` counts as absent. */
  sent(name: string): boolean {
    const value = this.raw.get(name);
    return value !== undefined && value !== null && value !== '';
  }

  bad(name: string): undefined {
    this.wrong.push(name);
    return undefined;
  }

  /** A single value; a key repeated in the query string gives its last value. */
  one(name: string): unknown {
    const value = this.raw.get(name);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.at(-1) : value;
  }

  text(name: string): string | undefined {
    if (!this.sent(name)) return undefined;
    // As sent: the contract says nothing of white space around a value (src trims it).
    const value = this.one(name);
    return typeof value === 'string' ? value : this.bad(name);
  }

  key(name: string): string | undefined {
    if (!this.sent(name)) return undefined;
    const value = this.one(name);
    return typeof value === 'string' && KEY.test(value) ? value : this.bad(name);
  }

  /** Keys: a JSON array (or its text), one key per repeated name, or `a,b`; at least one. */
  keys(name: string): string[] | undefined {
    if (!this.sent(name)) return undefined;
    const value = this.raw.get(name);
    const list = Array.isArray(value) ? value : decoded(value);
    const keys = typeof list === 'string' ? list.split(',') : list;
    const good = Array.isArray(keys) && keys.length > 0;
    return good && keys.every((k) => typeof k === 'string' && KEY.test(k)) ? keys : this.bad(name);
  }

  /** A number (or its decimal text) within the bounds. */
  number(name: string, bounds: { min?: number; max?: number; above?: number }) {
    if (!this.sent(name)) return undefined;
    const value = this.one(name);
    const n = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) return this.bad(name);
    const { min, max, above } = bounds;
    const inside =
      (min === undefined || n >= min) &&
      (max === undefined || n <= max) &&
      (above === undefined || n > above);
    return inside ? n : this.bad(name);
  }

  /**
   * An integer from `min` (up to `max`), `fallback` when absent. With no `max`, one past
   * 2^53 - 1 is read as 2^53 - 1 (the contract's Page).
   */
  whole(name: string, fallback: number, min: number, max?: number): number {
    if (!this.sent(name)) return fallback;
    const value = this.one(name);
    let n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (max === undefined && typeof n === 'number' && n > Number.MAX_SAFE_INTEGER)
      n = Number.MAX_SAFE_INTEGER;
    const good = typeof n === 'number' && Number.isSafeInteger(n) && n >= min && n <= (max ?? n);
    return good ? (n as number) : (this.bad(name) ?? fallback);
  }

  /** `true`/`false`, `1`/`0`, as booleans, numbers or text in any case; `fallback` if absent. */
  flag(name: string, fallback: boolean): boolean {
    if (!this.sent(name)) return fallback;
    const value = this.one(name);
    if (typeof value === 'boolean') return value;
    const word = BOOLEANS[`${value}`.toLowerCase()];
    const good = (typeof value === 'string' || value === 0 || value === 1) && word !== undefined;
    return good ? word : (this.bad(name) ?? fallback);
  }

  /** One of `values`, read in any case; `fallback` when absent. */
  choice<T extends string>(name: string, values: readonly T[], fallback: T): T {
    if (!this.sent(name)) return fallback;
    const value = this.one(name);
    const found = values.find((v) => typeof value === 'string' && v === value.toLowerCase());
    return found ?? this.bad(name) ?? fallback;
  }

  /** An instant in ms: ISO 8601 (a date alone is midnight UTC), `+0000`, `+` sent as a space. */
  time(name: string): number | undefined {
    if (!this.sent(name)) return undefined;
    const ms = isoMs(this.one(name));
    return ms === undefined ? this.bad(name) : ms;
  }

  /** Unix seconds (an integer from 0, or its digits) or an ISO 8601 date-time, in ms. */
  seconds(name: string): number | undefined {
    if (!this.sent(name)) return undefined;
    const value = this.one(name);
    if (typeof value === 'number')
      return Number.isSafeInteger(value) && value >= 0 ? value * 1000 : this.bad(name);
    if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value) * 1000;
    return this.time(name);
  }

  /** `{lat, lng}` (`lon` read as `lng`), as an object or its JSON; numbers or their text. */
  point(name: string): Point | undefined {
    if (!this.sent(name)) return undefined;
    const value = decoded(this.one(name)) as Record<string, unknown> | null;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.bad(name);
    const lat = coordinate(value.lat);
    const lng = coordinate(value.lng ?? value.lon);
    const inside = lat !== undefined && lng !== undefined && Math.abs(lat) <= 90;
    return inside && Math.abs(lng) <= 180 ? { lat, lng } : this.bad(name);
  }
}

function coordinate(value: unknown): number | undefined {
  const n = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The contract's DateOrDateTime as ms since the epoch; a time with no offset is UTC. */
function isoMs(value: unknown): number | undefined {
  const parts = typeof value === 'string' ? DATE_TIME.exec(value.trim()) : null;
  if (parts === null) return undefined;
  const [, date, time = '00:00', sentOffset = 'Z'] = parts;
  const offset = sentOffset.replace(' ', '+').replace(/^([-+]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${date}T${time}${offset.toUpperCase()}`);
  return Number.isNaN(ms) ? undefined : ms;
}
