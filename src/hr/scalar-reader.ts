import {
  commaParts,
  decimalNumber,
  holdsText,
  isBlank,
  isoTime,
  KEY_PATTERN,
  maybeJson,
  NUMBER_LIKE,
  OBJECT_AS_TEXT,
  shown,
  trimmed,
} from './param-values.ts';
import { fail, ok, type ParamError, type Result } from './result.ts';

/**
 * Parameters as they arrived: from a query string each value is a string, or a list of strings
 * when the key was repeated; from a JSON body, any JSON value. A Map, so that keys such as
 * `__proto__` are plain data.
 */
export type RawParams = Map<string, unknown>;

export const EXAMPLE_KEY = '12feac8fdc9c3b5f6c463c8f3a705d17d2581331';
/** The parameters that take a Unix time in place of those that take only a date-time. */
const UNIX_NAMES: Record<string, string> = {
  created_at_min: 'timestamp_start',
  created_at_max: 'timestamp_end',
};
const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/** The keys in their first order, each once: the list itself when none repeats (the usual). */
function distinct(keys: string[]): string[] {
  if (keys.length <= 16) {
    let repeats = false;
    for (let i = 1; i < keys.length && !repeats; i++) {
      for (let j = 0; j < i; j++) {
        if (keys[i] === keys[j]) {
          repeats = true;
          break;
        }
      }
    }
    if (!repeats) return keys;
  }
  return [...new Set(keys)];
}

/** `name=["<a key>"]`: how a list of keys is sent. */
function keysExample(name: string): string {
  return `${name}=["${EXAMPLE_KEY}"]`;
}

// Messages are made only for a value that needs one: a request that reads well makes none.

/** What `ParamReader.integer` wants, in words: `between 1 and 100`. */
function rangeText(options: { min: number; max?: number }): string {
  return options.max === undefined
    ? `at least ${options.min}`
    : `between ${options.min} and ${options.max}`;
}

/**
 * Why a value is not an integer: text a language reads as a number (`0x10`, `1e3`, `+5`,
 * `1_000`, `10.0`) is told to be written in decimal digits, with the number it seems to mean.
 */
function notAnInteger(
  name: string,
  raw: unknown,
  options: { min: number; max?: number; fallback: number },
) {
  const wanted = `${name} must be an integer ${rangeText(options)}`;
  if (typeof raw !== 'string' || !NUMBER_LIKE.test(raw)) return `${wanted}, got ${shown(raw)}`;
  const meant = Number(raw.replaceAll('_', ''));
  const inRange =
    Number.isSafeInteger(meant) &&
    meant >= options.min &&
    (options.max === undefined || meant <= options.max);
  return `${wanted} written in decimal digits only (no leading +, fraction, exponent, 0x, 0b or 0o prefix, _ separator or Infinity): ${inRange ? `send ${name}=${meant}` : `e.g. ${name}=${options.fallback}`}, got ${shown(raw)}`;
}

/** What `ParamReader.number` wants, in words: `a number at least 0 (years)`. */
function wantedNumber(options: { min?: number; max?: number; above?: number; unit?: string }) {
  const bounds = [
    options.above !== undefined ? `greater than ${options.above}` : null,
    options.min !== undefined ? `at least ${options.min}` : null,
    options.max !== undefined ? `at most ${options.max}` : null,
  ].filter(Boolean);
  return `a number${bounds.length > 0 ? ` ${bounds.join(' and ')}` : ''}${options.unit ? ` (${options.unit})` : ''}`;
}

/**
 * Reads single-valued parameters (strings, keys, numbers, booleans, times) out of raw ones,
 * collecting one error per bad parameter, so that a client learns everything wrong at once.
 */
export class ScalarReader {
  protected readonly raw: RawParams;
  readonly #errors: ParamError[] = [];

  constructor(raw: RawParams) {
    this.raw = raw;
  }

  /** Present with a value: an empty or blank string, or null, counts as absent. */
  has(name: string): boolean {
    const value = this.raw.get(name);
    return value !== undefined && value !== null && value !== '' && !isBlank(value);
  }

  /** Whether any of `names` was sent at all (with any value, empty or null included). */
  holdsAny(names: ReadonlySet<string>): boolean {
    for (const name of this.raw.keys()) if (names.has(name)) return true;
    return false;
  }

  error(param: string, message: string): void {
    const hint = holdsText(this.raw.get(param), OBJECT_AS_TEXT);
    this.#errors.push({
      param,
      message: hint
        ? `${message}. ${OBJECT_AS_TEXT} is what an object becomes when it is turned into text: encode it as JSON (JSON.stringify) or as ${param}[field]=… pairs`
        : message,
    });
  }

  finish<T>(value: T): Result<T> {
    return this.#errors.length > 0 ? fail(this.#errors) : ok(value);
  }

  get failed(): boolean {
    return this.#errors.length > 0;
  }

  protected missing(name: string, hint: string): undefined {
    this.error(name, `${name} is required: ${hint}`);
    return undefined;
  }

  /**
   * The single value of a parameter, without white space at its ends; a repeated scalar takes
   * its last value.
   */
  protected scalar(name: string): unknown {
    const value = this.raw.get(name);
    const last =
      Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.at(-1) : value;
    return typeof last === 'string' ? trimmed(last) : last;
  }

  string(name: string, options: { required?: boolean; hint?: string } = {}): string | undefined {
    if (!this.has(name)) {
      return options.required
        ? this.missing(name, options.hint ?? 'send a non-empty string')
        : undefined;
    }
    const value = this.scalar(name);
    if (typeof value === 'string' && value !== '') return value;
    this.error(name, `${name} must be a non-empty string, got ${shown(value)}`);
    return undefined;
  }

  key(name: string, what: string, options: { required?: boolean } = {}): string | undefined {
    if (!this.has(name)) {
      return options.required ? this.missing(name, `send the key of the ${what}`) : undefined;
    }
    const value = this.scalar(name);
    if (typeof value === 'string' && KEY_PATTERN.test(value)) return value;
    this.error(
      name,
      `${name} must be a ${what} key (40 lowercase hexadecimal characters), got ${shown(value)}`,
    );
    return undefined;
  }

  keyList(name: string, what: string, options: { required?: boolean } = {}): string[] | undefined {
    if (!this.has(name)) {
      return options.required
        ? this.missing(name, `send the ${what} keys as a JSON array, e.g. ${keysExample(name)}`)
        : undefined;
    }
    const raw = this.raw.get(name);
    // The usual form, a list of keys (a JSON array, or a key per repeated query name): as sent,
    // what the reading below would make of it too.
    if (
      Array.isArray(raw) &&
      raw.length > 0 &&
      raw.every((v) => typeof v === 'string' && KEY_PATTERN.test(v))
    )
      return distinct(raw as string[]);
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => {
      const decoded = maybeJson(v);
      if (Array.isArray(decoded))
        return decoded.map((k) => (typeof k === 'string' ? trimmed(k) : k));
      // `k1,k2`: keys hold no comma, so a comma-joined list is unambiguous.
      if (typeof decoded === 'string' && decoded.includes(',')) return commaParts(decoded);
      return [typeof decoded === 'string' ? trimmed(decoded) : decoded];
    });
    const bad = values.find((v) => typeof v !== 'string' || !KEY_PATTERN.test(v));
    if (values.length === 0 || bad !== undefined) {
      // A list whose items are wrong names the item; anything else is shown as sent.
      const listed = Array.isArray(raw) || Array.isArray(maybeJson(raw));
      const got =
        values.length === 0
          ? 'got an empty list'
          : listed
            ? `but ${shown(bad)} is not one`
            : `got ${shown(raw)}`;
      this.error(
        name,
        `${name} must be a JSON array of ${what} keys (40 lowercase hexadecimal characters), ${got}. Send for example ${keysExample(name)}`,
      );
      return undefined;
    }
    return distinct(values as string[]);
  }

  /**
   * An integer. Without a `max`, any integer from `min` up is taken, however many digits: one
   * past 2^53 - 1 (which JavaScript cannot hold exactly) is read as 2^53 - 1, beyond any page.
   */
  integer(name: string, options: { min: number; max?: number; fallback: number }): number {
    if (!this.has(name)) return options.fallback;
    const raw = this.scalar(name);
    const digits = typeof raw === 'string' && /^-?\d+$/.test(raw);
    let value = digits ? Number(raw) : raw;
    const huge =
      options.max === undefined &&
      typeof value === 'number' &&
      Number.isInteger(value) &&
      value > Number.MAX_SAFE_INTEGER;
    if (huge) value = Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      this.error(name, notAnInteger(name, raw, options));
      return options.fallback;
    }
    if (value < options.min || (options.max !== undefined && value > options.max)) {
      // The digits as sent: a long number is not quoted through a rounded double.
      this.error(
        name,
        `${name} must be ${rangeText(options)}, got ${digits ? String(raw) : shown(raw)}`,
      );
      return options.fallback;
    }
    return value;
  }

  number(
    name: string,
    options: { min?: number; max?: number; above?: number; unit?: string } = {},
  ): number | undefined {
    if (!this.has(name)) return undefined;
    const raw = this.scalar(name);
    const value = typeof raw === 'string' ? decimalNumber(raw) : raw;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      const notation =
        typeof raw === 'string' && NUMBER_LIKE.test(raw)
          ? ' in decimal notation (2.5, 0.001 or 1e-3; no leading +, no 0x, 0b or 0o prefix, no _ separator, no Infinity)'
          : '';
      this.error(name, `${name} must be ${wantedNumber(options)}${notation}, got ${shown(raw)}`);
      return undefined;
    }
    if (
      (options.above !== undefined && value <= options.above) ||
      (options.min !== undefined && value < options.min) ||
      (options.max !== undefined && value > options.max)
    ) {
      this.error(name, `${name} must be ${wantedNumber(options)}, got ${value}`);
      return undefined;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    if (!this.has(name)) return fallback;
    const raw = this.scalar(name);
    if (typeof raw === 'boolean') return raw;
    if (raw === 0 || raw === 1) return raw === 1;
    const word = typeof raw === 'string' ? BOOLEAN_WORDS[raw.toLowerCase()] : undefined;
    if (word !== undefined) return word;
    this.error(name, `${name} must be true or false (1 or 0 also work), got ${shown(raw)}`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    if (!this.has(name)) return fallback;
    const raw = this.scalar(name);
    if (typeof raw === 'string') {
      if ((allowed as readonly string[]).includes(raw)) return raw as T;
      // Clients send `stage=YES`, `order_by=DESC`: a value is matched whatever its case.
      const lower = raw.toLowerCase();
      const found = allowed.find((value) => value.toLowerCase() === lower);
      if (found !== undefined) return found;
    }
    this.error(name, `${name} must be one of ${allowed.join(', ')}, got ${shown(raw)}`);
    return fallback;
  }

  /**
   * A Unix time in seconds (a number or decimal digits, with a fraction as Python's `time.time()`
   * gives), or an ISO 8601 date-time, as milliseconds.
   */
  instant(name: string): number | undefined {
    if (!this.has(name)) return undefined;
    const raw = this.scalar(name);
    if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) return raw * 1000;
    if (typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
    return this.dateTime(name);
  }

  dateTime(name: string): number | undefined {
    if (!this.has(name)) return undefined;
    const raw = this.scalar(name);
    const time = isoTime(raw);
    if (Number.isNaN(time)) {
      // A Unix time where only `timestamp_start` / `timestamp_end` take one: say where it goes.
      const unix = UNIX_NAMES[name];
      const hint =
        unix !== undefined && /^\d+(\.\d+)?$/.test(String(raw))
          ? ` (a Unix time in seconds goes in ${unix})`
          : '';
      this.error(
        name,
        `${name} must be an ISO 8601 date or date-time such as 2025-01-31T00:00:00Z${hint}, got ${shown(raw)}`,
      );
      return undefined;
    }
    return time;
  }
}
