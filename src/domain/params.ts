import {
  commaParts,
  type GeoPoint,
  holdsText,
  type ItemFilter,
  isItemGroup,
  isoTime,
  KEY_PATTERN,
  mayBeJsonText,
  maybeJson,
  OBJECT_AS_TEXT,
  shown,
  toGeoPoint,
  toItemFilter,
} from './param-values.ts';
import { fail, ok, type ParamError, type Result } from './result.ts';

/**
 * Parameters as they arrived: from a query string each value is a string, or a list of strings
 * when the key was repeated; from a JSON body, any JSON value. A Map, so that keys such as
 * `__proto__` are plain data.
 */
export type RawParams = Map<string, unknown>;

export { type GeoPoint, type ItemFilter, KEY_PATTERN, shown } from './param-values.ts';

const EXAMPLE_KEY = '12feac8fdc9c3b5f6c463c8f3a705d17d2581331';
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
 * Reads typed parameters out of raw ones, collecting one error per bad parameter, so that a
 * client learns everything wrong with a request at once.
 */
export class ParamReader {
  readonly #raw: RawParams;
  readonly #errors: ParamError[] = [];

  constructor(raw: RawParams) {
    this.#raw = raw;
  }

  /** Present with a value: an empty string or null counts as absent. */
  has(name: string): boolean {
    const value = this.#raw.get(name);
    return value !== undefined && value !== null && value !== '';
  }

  /** Whether any of `names` was sent at all (with any value, empty or null included). */
  holdsAny(names: ReadonlySet<string>): boolean {
    for (const name of this.#raw.keys()) if (names.has(name)) return true;
    return false;
  }

  error(param: string, message: string): void {
    const hint = holdsText(this.#raw.get(param), OBJECT_AS_TEXT);
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

  #missing(name: string, hint: string): undefined {
    this.error(name, `${name} is required: ${hint}`);
    return undefined;
  }

  /** The single value of a parameter; a repeated scalar takes its last value. */
  #scalar(name: string): unknown {
    const value = this.#raw.get(name);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.at(-1) : value;
  }

  string(name: string, options: { required?: boolean; hint?: string } = {}): string | undefined {
    if (!this.has(name)) {
      return options.required
        ? this.#missing(name, options.hint ?? 'send a non-empty string')
        : undefined;
    }
    const value = this.#scalar(name);
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.error(name, `${name} must be a non-empty string, got ${shown(value)}`);
    return undefined;
  }

  key(name: string, what: string, options: { required?: boolean } = {}): string | undefined {
    if (!this.has(name)) {
      return options.required ? this.#missing(name, `send the key of the ${what}`) : undefined;
    }
    const value = this.#scalar(name);
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
        ? this.#missing(name, `send the ${what} keys as a JSON array, e.g. ${keysExample(name)}`)
        : undefined;
    }
    const raw = this.#raw.get(name);
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
      if (Array.isArray(decoded)) return decoded;
      // `k1,k2`: keys hold no comma, so a comma-joined list is unambiguous.
      if (typeof decoded === 'string' && decoded.includes(',')) return commaParts(decoded);
      return [decoded];
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
    const raw = this.#scalar(name);
    const digits = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw);
    let value = digits ? Number(raw) : raw;
    const huge =
      options.max === undefined &&
      typeof value === 'number' &&
      Number.isInteger(value) &&
      value > Number.MAX_SAFE_INTEGER;
    if (huge) value = Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      this.error(name, `${name} must be an integer ${rangeText(options)}, got ${shown(raw)}`);
      return options.fallback;
    }
    if (value < options.min || (options.max !== undefined && value > options.max)) {
      // The digits as sent: a long number is not quoted through a rounded double.
      this.error(
        name,
        `${name} must be ${rangeText(options)}, got ${digits ? String(raw).trim() : shown(raw)}`,
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
    const raw = this.#scalar(name);
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.error(name, `${name} must be ${wantedNumber(options)}, got ${shown(raw)}`);
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
    const raw = this.#scalar(name);
    if (typeof raw === 'boolean') return raw;
    if (raw === 0 || raw === 1) return raw === 1;
    const word = typeof raw === 'string' ? BOOLEAN_WORDS[raw.trim().toLowerCase()] : undefined;
    if (word !== undefined) return word;
    this.error(name, `${name} must be true or false (1 or 0 also work), got ${shown(raw)}`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    if (!this.has(name)) return fallback;
    const raw = this.#scalar(name);
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

  /** A Unix time in seconds (a number or digits), or an ISO 8601 date-time, as milliseconds. */
  instant(name: string): number | undefined {
    if (!this.has(name)) return undefined;
    const raw = this.#scalar(name);
    if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) return raw * 1000;
    if (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
    return this.dateTime(name);
  }

  dateTime(name: string): number | undefined {
    if (!this.has(name)) return undefined;
    const raw = this.#scalar(name);
    const time = isoTime(raw);
    if (Number.isNaN(time)) {
      this.error(
        name,
        `${name} must be an ISO 8601 date or date-time such as 2025-01-31T00:00:00Z, got ${shown(raw)}`,
      );
      return undefined;
    }
    return time;
  }

  /**
   * Python's `requests` sends a dict, or each dict of a list, as its keys (`skills=name&
   * skills=value`): read as names, that would filter on nonsense without a word, so say it.
   */
  #dictKeys(name: string, fields: readonly string[]): boolean {
    const raw = this.#raw.get(name);
    const keysOnly =
      Array.isArray(raw) &&
      raw.length > 1 &&
      raw.every((v) => typeof v === 'string' && fields.includes(v));
    if (keysOnly) {
      this.error(
        name,
        `${name} came as the field names ${raw.join(', ')} alone, which is how Python's requests sends a dict: send json.dumps(${name}) instead`,
      );
    }
    return keysOnly;
  }

  /** A list: a JSON array (or JSON-encoded one), or one value per repeated query key. */
  #list(name: string): unknown[] | undefined {
    const raw = this.#raw.get(name);
    if (Array.isArray(raw)) {
      // Strings none of which can be JSON (`["python"]`, the usual list): read as they are.
      if (raw.every((v) => typeof v === 'string' && !mayBeJsonText(v))) return raw;
      // Repeated query keys: each value may itself be JSON (an item, or a list to splice in).
      if (raw.every((v) => typeof v === 'string')) {
        return raw.flatMap((v) => {
          const decoded = maybeJson(v);
          return Array.isArray(decoded) && raw.length > 1 && !isItemGroup(decoded)
            ? decoded
            : [decoded];
        });
      }
      return raw;
    }
    const decoded = maybeJson(raw);
    if (Array.isArray(decoded)) return decoded;
    // One object where a list of them goes (`skills[name]=python`, qs's `repeat` format, or
    // `{"name": …}` alone): a list of one.
    return typeof decoded === 'object' && decoded !== null ? [decoded] : undefined;
  }

  keywords(name: string): string[] | undefined {
    if (!this.has(name)) return undefined;
    const raw = this.#raw.get(name);
    // A plain string, not JSON: `python` or `python,spark` (how URLSearchParams sends a list).
    const plain =
      typeof raw === 'string' && !/^\s*[[{"]/.test(raw) && !raw.includes(OBJECT_AS_TEXT)
        ? commaParts(raw)
        : undefined;
    const list = plain !== undefined && plain.length > 0 ? plain : this.#list(name);
    if (list === undefined || list.some((v) => typeof v !== 'string' || v.trim() === '')) {
      this.error(
        name,
        `${name} must be a JSON array of non-empty strings, e.g. ${name}=["python","spark"], got ${shown(this.#raw.get(name))}`,
      );
      return undefined;
    }
    return (list as string[]).map((k) => k.trim());
  }

  itemFilters(name: string): ItemFilter[] | undefined {
    if (!this.has(name)) return undefined;
    if (this.#dictKeys(name, ['name', 'value'])) return undefined;
    const items = this.#list(name)?.map(toItemFilter);
    if (items === undefined || items.some((i) => i === null)) {
      this.error(
        name,
        `${name} must be a JSON array of {"name", "value"} objects, e.g. ${name}=[{"name":"python","value":null}], got ${shown(this.#raw.get(name))}`,
      );
      return undefined;
    }
    return items as ItemFilter[];
  }

  /**
   * Tag filters as groups: a flat list `[A, B]` needs every tag (groups [A], [B]); a list of
   * lists `[[A, B], [C]]` needs one tag of each group.
   */
  tagGroups(name: string): ItemFilter[][] | undefined {
    if (!this.has(name)) return undefined;
    if (this.#dictKeys(name, ['name', 'value'])) return undefined;
    const list = this.#list(name);
    const groups = list?.map((entry) => {
      const members = Array.isArray(entry) ? entry.map(toItemFilter) : [toItemFilter(entry)];
      return members.length > 0 && members.every((m) => m !== null)
        ? (members as ItemFilter[])
        : null;
    });
    if (groups === undefined || groups.some((g) => g === null)) {
      this.error(
        name,
        `${name} must be a JSON array of {"name", "value"} tags, or of lists of them, e.g. ${name}=[{"name":"remote","value":"yes"}], got ${shown(this.#raw.get(name))}`,
      );
      return undefined;
    }
    return groups as ItemFilter[][];
  }

  geoPoint(name: string): GeoPoint | undefined {
    if (!this.has(name)) return undefined;
    if (this.#dictKeys(name, ['lat', 'lng', 'lon'])) return undefined;
    const raw = this.#scalar(name);
    const point = toGeoPoint(raw);
    if (point === null) {
      this.error(
        name,
        `${name} must be a JSON object {"lat": -90..90, "lng": -180..180} ("lon" is read as "lng"), e.g. ${name}={"lat":45.764,"lng":4.8357}, got ${shown(raw)}`,
      );
      return undefined;
    }
    return point;
  }

  /**
   * A batch of `{containerField, keyField}` objects, e.g. profile_ids, as [container, key]
   * pairs.
   */
  idList(name: string, fields: [string, string], max: number): [string, string][] | undefined {
    if (!this.has(name)) return undefined;
    if (this.#dictKeys(name, fields)) return undefined;
    const list = this.#list(name);
    if (list === undefined || list.length === 0) {
      const example = `${name}=[{"${fields[0]}":"${EXAMPLE_KEY}","${fields[1]}":"…"}]`;
      this.error(
        name,
        `${name} must be a non-empty JSON array of {"${fields[0]}", "${fields[1]}"} objects, e.g. ${example}, got ${shown(this.#raw.get(name))}`,
      );
      return undefined;
    }
    if (list.length > max) {
      this.error(
        name,
        `${name} holds ${list.length} items; at most ${max} can be graded in one request, so split the batch`,
      );
      return undefined;
    }
    const ids: [string, string][] = [];
    // The first field is mostly the same key all along (a batch from one source or board).
    let checked: string | undefined;
    for (const [index, entry] of list.entries()) {
      const item = maybeJson(entry) as Record<string, unknown> | null;
      const a = typeof item === 'object' && item !== null ? item[fields[0]] : undefined;
      const b = typeof item === 'object' && item !== null ? item[fields[1]] : undefined;
      if (
        typeof a !== 'string' ||
        typeof b !== 'string' ||
        (a !== checked && !KEY_PATTERN.test(a)) ||
        !KEY_PATTERN.test(b)
      ) {
        this.error(
          name,
          `${name}[${index}] must be {"${fields[0]}": key, "${fields[1]}": key} with 40-hex keys, got ${shown(entry)}`,
        );
        return undefined;
      }
      checked = a;
      ids.push([a, b]);
    }
    return ids;
  }
}
