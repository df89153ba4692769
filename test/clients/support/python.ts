/**
 * How Python turns values into request text, rewritten here from the behaviour of the standard
 * library, `requests` and `httpx`, so that tests send byte for byte what a Python client sends.
 * Python values are written as JSON-like JavaScript values: `null` is `None`, `true` is `True`,
 * integers are numbers (floats are used only where Python's repr equals JavaScript's text).
 */
export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

/** `json.dumps(value)` with its defaults: `", "` and `": "` separators, `ensure_ascii`. */
export function jsonDumps(value: PyValue): string {
  if (Array.isArray(value)) return `[${value.map(jsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${asciiJson(k)}: ${jsonDumps(v)}`);
    return `{${members.join(', ')}}`;
  }
  return typeof value === 'string' ? asciiJson(value) : JSON.stringify(value);
}

function asciiJson(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `str(value)`: `True`, `None`, and for lists and dicts their repr. */
export function pyStr(value: PyValue): string {
  if (typeof value === 'string') return value;
  return pyRepr(value);
}

/** `repr(value)`: strings in single quotes (double when they hold a single quote). */
export function pyRepr(value: PyValue): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
    return `${quote}${quote === "'" ? escaped.replace(/'/g, "\\'") : escaped}${quote}`;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
    .join(', ')}}`;
}

/** `urllib.parse.quote_plus`: letters, digits and `_.-~` kept, spaces as `+`, UTF-8 escaped. */
export function quotePlus(text: string): string {
  return [...new TextEncoder().encode(text)]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      if (/[A-Za-z0-9_.~-]/.test(char)) return char;
      if (char === ' ') return '+';
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * `requests.get(url, params=params)`: `None` values dropped; a list gives one pair per item;
 * then `urlencode(pairs, doseq=True)`, which iterates whatever is not a string, so a dict (alone
 * or in a list) is sent as its keys.
 */
export function requestsQuery(params: Record<string, PyValue>): string {
  const pairs: [string, PyValue][] = [];
  for (const [name, value] of Object.entries(params)) {
    const values = Array.isArray(value) || isDict(value) ? iterate(value) : [value];
    for (const item of values) if (item !== null) pairs.push([name, item]);
  }
  return pairs
    .flatMap(([name, value]) =>
      typeof value === 'string' || !(Array.isArray(value) || isDict(value))
        ? [`${quotePlus(name)}=${quotePlus(pyStr(value))}`]
        : iterate(value).map((item) => `${quotePlus(name)}=${quotePlus(pyStr(item))}`),
    )
    .join('&');
}

/**
 * `httpx.get(url, params=params)`: a list or tuple gives one pair per item; `True`/`False` are
 * `true`/`false`, `None` the empty string, anything else `str()`, so a dict is its repr.
 */
export function httpxQuery(params: Record<string, PyValue>): string {
  const primitive = (value: PyValue): string =>
    value === true ? 'true' : value === false ? 'false' : value === null ? '' : pyStr(value);
  return Object.entries(params)
    .flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map(
        (item) => `${quotePlus(name)}=${quotePlus(primitive(item))}`,
      ),
    )
    .join('&');
}

/** The headers `requests` adds to every request of a plain session. */
export const REQUESTS_HEADERS = {
  'User-Agent': 'python-requests/2.32.3',
  'Accept-Encoding': 'gzip, deflate',
  Accept: '*/*',
  Connection: 'keep-alive',
};

function isDict(value: PyValue): value is { [key: string]: PyValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Iterating a list gives its items; iterating a dict gives its keys. */
function iterate(value: PyValue[] | { [key: string]: PyValue }): PyValue[] {
  return Array.isArray(value) ? value : Object.keys(value);
}
