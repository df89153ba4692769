import { instantOf } from './dates.ts';
import { type Problem, type Raw, structured } from './decode.ts';

/** One `{name, value}` filter; `value` is `null` for "any value". */
export type Filter = { name: string; value: string | null };
export type Point = { lat: number; lng: number };

const KEY = /^[0-9a-f]{40}$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const OBJECT_TEXT = '[object Object]';

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
};

/**
 * Reads typed parameters out of one request's raw values, collecting a problem per bad one.
 * Every text a client wrote (keywords, names, filter values) is kept in `texts`.
 */
export const reader = (raw: Raw, origin: 'query' | 'body') => {
  const problems: Problem[] = [];
  const texts: string[] = [];
  const fail = (param: string, message: string): undefined => {
    problems.push({ param, message });
    return undefined;
  };
  const objectText = (param: string): undefined =>
    fail(
      param,
      `${param} is "${OBJECT_TEXT}": the client turned an object into text. Send it JSON-encoded, e.g. ${param}=${JSON.stringify([{ name: 'python', value: null }])}`,
    );
  const has = (name: string): boolean => raw[name] !== undefined;
  /** One value: on a query the first of a repeated name. */
  const one = (name: string): unknown => {
    const value = raw[name];
    return origin === 'query' && Array.isArray(value) ? value[0] : value;
  };

  const text = (name: string): string | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return fail(name, `${name} must be a text, got ${show(value)}`);
    if (value === OBJECT_TEXT) return objectText(name);
    texts.push(value);
    return value;
  };

  const key = (name: string, what: string): string | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    if (typeof value === 'string' && KEY.test(value.trim())) return value.trim();
    return fail(
      name,
      `${name} must be a ${what} key (40 lowercase hexadecimal characters), got ${show(value)}`,
    );
  };

  /** The items of a list parameter, decoded from any of its accepted forms. */
  const items = (name: string, split: boolean, flat: boolean): unknown[] | undefined => {
    const value = raw[name];
    if (value === undefined) return undefined;
    const parse = (item: unknown): unknown[] => {
      if (typeof item !== 'string') return [item];
      const parsed = structured(item);
      if (parsed === undefined) return split ? item.split(',').map((part) => part.trim()) : [item];
      return Array.isArray(parsed) && flat ? parsed : [parsed];
    };
    if (typeof value === 'string') {
      if (value === OBJECT_TEXT) return objectText(name);
      const parsed = structured(value);
      if (parsed === undefined) return parse(value);
      return Array.isArray(parsed) ? parsed : [parsed];
    }
    if (Array.isArray(value)) {
      if (value.includes(OBJECT_TEXT)) return objectText(name);
      return value.flatMap((item) => (origin === 'query' ? parse(item) : [item]));
    }
    if (typeof value === 'object' && value !== null) return [value];
    return fail(name, `${name} must be a JSON array, got ${show(value)}`);
  };

  const keys = (name: string, what: string): string[] | undefined => {
    const list = items(name, true, true);
    if (list === undefined) return undefined;
    const given = list.filter((item) => item !== '');
    const bad = given.find((item) => typeof item !== 'string' || !KEY.test(item));
    if (given.length === 0 || bad !== undefined)
      return fail(
        name,
        `${name} must be a JSON array of ${what} keys (40 lowercase hexadecimal characters), got ${show(raw[name])}. Send for example ${name}=["${'0'.repeat(40)}"]`,
      );
    return [...new Set(given as string[])];
  };

  const keywords = (name: string): string[] | undefined => {
    const list = items(name, true, true);
    if (list === undefined) return undefined;
    if (list.some((item) => typeof item !== 'string'))
      return fail(name, `${name} must be a JSON array of texts, got ${show(raw[name])}`);
    const words = (list as string[]).filter((word) => word.trim() !== '');
    texts.push(...words);
    const distinct = [...new Map(words.map((word) => [word.toLowerCase(), word])).values()];
    if (distinct.length > 50)
      return fail(
        name,
        `${name} holds ${distinct.length} distinct keywords; at most 50 are allowed`,
      );
    if (distinct.some((word) => [...word].length > 100))
      return fail(name, `${name} holds a keyword of more than 100 characters`);
    return distinct;
  };

  const filter = (item: unknown): Filter | undefined => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const { name: label, value = null } = item as Record<string, unknown>;
    if (typeof label !== 'string' || label.trim() === '') return undefined;
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) return undefined;
    const shown = value === null ? null : String(value);
    texts.push(label, ...(shown === null ? [] : [shown]));
    return { name: label, value: shown };
  };

  const badFilters = (name: string): undefined =>
    fail(
      name,
      `${name} must be a JSON array of {"name", "value"} objects, got ${show(raw[name])}. Send for example ${name}=[{"name":"python","value":null}]`,
    );

  const filters = (name: string): Filter[] | undefined => {
    const list = items(name, false, true);
    if (list === undefined) return undefined;
    const read = list.map((item) => filter(item));
    if (read.some((item) => item === undefined)) return badFilters(name);
    if (read.length > 50)
      return fail(name, `${name} holds ${read.length} items; at most 50 are allowed`);
    return read as Filter[];
  };

  /** A flat list is one group per tag (all required); a list of lists, one group per list. */
  const tagGroups = (name: string): Filter[][] | undefined => {
    const list = items(name, false, false);
    if (list === undefined) return undefined;
    const groups = list.map((item) =>
      Array.isArray(item) ? item.map((inner) => filter(inner)) : [filter(item)],
    );
    if (groups.some((group) => group.some((item) => item === undefined))) return badFilters(name);
    const count = groups.reduce((total, group) => total + group.length, 0);
    if (count > 50) return fail(name, `${name} holds ${count} tags; at most 50 are allowed`);
    return (groups as Filter[][]).filter((group) => group.length > 0);
  };

  const number = (name: string, min: number, max = Number.POSITIVE_INFINITY, open = false) => {
    const value = one(name);
    if (value === undefined) return undefined;
    const n =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && NUMBER.test(value.trim())
          ? Number(value)
          : Number.NaN;
    const low = open ? n > min : n >= min;
    if (Number.isFinite(n) && low && n <= max) return n;
    const range =
      max === Number.POSITIVE_INFINITY
        ? `${open ? 'above' : 'at least'} ${min}`
        : `between ${min} and ${max}`;
    return fail(name, `${name} must be a number ${range}, got ${show(value)}`);
  };

  const integer = (name: string, min: number, max: number) => {
    const value = one(name);
    if (value === undefined) return undefined;
    const n =
      typeof value === 'number' && Number.isInteger(value)
        ? value
        : typeof value === 'string' && /^\d+$/.test(value.trim())
          ? Number(value)
          : Number.NaN;
    const unbounded = max === Number.MAX_SAFE_INTEGER;
    if (!Number.isNaN(n) && n >= min && (n <= max || unbounded)) return Math.min(n, max);
    const range = unbounded ? `from ${min}` : `from ${min} to ${max}`;
    return fail(name, `${name} must be an integer ${range}, got ${show(value)}`);
  };

  const flag = (name: string): boolean | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    if (value === true || value === 1) return true;
    if (value === false || value === 0) return false;
    if (typeof value === 'string' && /^(true|1)$/i.test(value.trim())) return true;
    if (typeof value === 'string' && /^(false|0)$/i.test(value.trim())) return false;
    return fail(name, `${name} must be true, false, 1 or 0, got ${show(value)}`);
  };

  const choice = <T extends string>(name: string, values: readonly T[]): T | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    const found = values.find((v) => typeof value === 'string' && v === value.trim().toLowerCase());
    return found ?? fail(name, `${name} must be one of ${values.join(', ')}, got ${show(value)}`);
  };

  const instant = (name: string): number | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    const ms = typeof value === 'string' ? instantOf(value) : undefined;
    return ms ?? fail(name, `${name} must be an ISO 8601 date or date-time, got ${show(value)}`);
  };

  const timestamp = (name: string): number | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    // Contract 1.4.0: a fractional Unix time (Python's time.time()) is accepted.
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value * 1000;
    if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()))
      return Number(value) * 1000;
    const ms = typeof value === 'string' ? instantOf(value) : undefined;
    return (
      ms ??
      fail(
        name,
        `${name} must be a Unix time in seconds or an ISO 8601 date-time, got ${show(value)}`,
      )
    );
  };

  const point = (name: string): Point | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    if (value === OBJECT_TEXT) return objectText(name);
    const object = typeof value === 'string' ? structured(value) : value;
    const o = (typeof object === 'object' && object !== null ? object : {}) as Record<
      string,
      unknown
    >;
    const coordinate = (v: unknown) =>
      typeof v === 'number'
        ? v
        : typeof v === 'string' && NUMBER.test(v.trim())
          ? Number(v)
          : Number.NaN;
    const lat = coordinate(o.lat);
    const lng = coordinate(o.lng ?? o.lon);
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) return { lat, lng };
    return fail(
      name,
      `${name} must be a JSON object {"lat": -90..90, "lng": -180..180}, got ${show(value)}`,
    );
  };

  /** `profile_ids` / `job_ids`: 1 to 100 objects holding two keys. */
  const ids = (name: string, container: string, item: string) => {
    const list = items(name, false, true);
    if (list === undefined) return undefined;
    const read = list.map((entry) => {
      const o = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<
        string,
        unknown
      >;
      const a = o[container];
      const b = o[item];
      return typeof a === 'string' && KEY.test(a) && typeof b === 'string' && KEY.test(b)
        ? { container: a, item: b }
        : undefined;
    });
    if (read.length === 0 || read.length > 100 || read.some((entry) => entry === undefined))
      return fail(
        name,
        `${name} must be a JSON array of 1 to 100 {"${container}", "${item}"} objects of 40-hex keys, got ${show(raw[name])}`,
      );
    return read as { container: string; item: string }[];
  };

  return {
    problems,
    texts,
    has,
    fail,
    text,
    key,
    keys,
    keywords,
    filters,
    tagGroups,
    number,
    integer,
    flag,
    choice,
    instant,
    timestamp,
    point,
    ids,
  };
};

export type Reader = ReturnType<typeof reader>;
