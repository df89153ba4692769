/** What stands for a secret wherever hrmock keeps or shows a request. */
export const REDACTED = '[redacted]';

/** Headers whose values are never kept or shown: keys, credentials, cookies, the user. */
export const SECRET_HEADERS = [
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-user-email',
] as const;

/** A parameter (or header) name holding a secret: one of these anywhere in it, in any case. */
export const SECRET_NAME = /api[-_]?key|token|secret|passw(or)?d|session|signature|credential/i;

/** A secret value shorter than this is never looked for (it would match ordinary text). */
const SHORTEST_VALUE = 4;
/** Deeper than this, plain data is left as it is (the journal keeps such values as raw text). */
const MAX_DEPTH = 64;
/** How many header names the decisions are remembered for (clients send the same few). */
const REMEMBERED_NAMES = 512;

// `name=value` in a query or form (after `?`, `&`, `;` or at the start), and `"name": scalar` in JSON.
const PAIR = /(^|[?&;])([^=&;#?\s]+)=([^&;#\s]*)/g;
const JSON_PAIR = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)/g;

export type RedactionOptions = {
  /** Header names kept as `[redacted]` besides SECRET_HEADERS (`--redact-header`), any case. */
  headers?: readonly string[];
  /** Values never shown wherever they appear: the configured key, the run's header values. */
  values?: readonly (string | undefined)[];
};

/**
 * The one list of what hrmock never keeps nor shows: the secret headers and every header named
 * by `--redact-header`, parameters named like SECRET_NAME (or like a secret header) in a query,
 * a form or a JSON body at any depth, and the given secret values wherever they appear.
 */
export class Redaction {
  readonly #headers: Set<string>;
  readonly #values: string[];
  readonly #decided = new Map<string, boolean>();

  constructor(options: RedactionOptions = {}) {
    this.#headers = new Set([...SECRET_HEADERS, ...(options.headers ?? [])].map(lowerName));
    const values = (options.values ?? []).filter(
      (v): v is string => v !== undefined && v.length >= SHORTEST_VALUE,
    );
    // Longest first: a value inside another is replaced after it.
    this.#values = [...new Set(values)].sort((a, b) => b.length - a.length);
  }

  /** This list with more secret values (those a request carried under secret names). */
  withValues(values: readonly string[]): Redaction {
    if (values.length === 0) return this;
    return new Redaction({ headers: [...this.#headers], values: [...this.#values, ...values] });
  }

  /** Whether a header's value is a secret. */
  header(name: string): boolean {
    let secret = this.#decided.get(name);
    if (secret === undefined) {
      secret = this.#headers.has(lowerName(name)) || SECRET_NAME.test(name);
      if (this.#decided.size < REMEMBERED_NAMES) this.#decided.set(name, secret);
    }
    return secret;
  }

  /** Whether a parameter's value is a secret: `access_token`, `x_api_key`, `x-user-email`. */
  param(name: string): boolean {
    return SECRET_NAME.test(name) || this.#headers.has(lowerName(name));
  }

  /** A header's value as kept or shown. */
  headerValue(name: string, value: string): string {
    if (this.header(name)) return REDACTED;
    return this.#values.length === 0 ? value : this.#withoutValues(value);
  }

  /**
   * Plain data (decoded parameters) with the value of every secret name, at any depth, and every
   * secret value replaced by `[redacted]`; the same object when there was nothing to replace.
   */
  params<T>(value: T): T {
    return this.#walk(value, 0, true) as T;
  }

  /** Every string of plain data (a report) with the secret values replaced; names are not read. */
  strings<T>(value: T): T {
    return this.#walk(value, 0, false) as T;
  }

  /** The string values under secret names in plain data, at any depth: a request's own secrets. */
  valuesIn(value: unknown, depth = 0): string[] {
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return [];
    const found: string[] = [];
    for (const [name, item] of Object.entries(value)) {
      if (!Array.isArray(value) && this.param(name) && isScalar(item)) found.push(String(item));
      else found.push(...this.valuesIn(item, depth + 1));
    }
    return found;
  }

  /**
   * Text as sent or shown (a URL, a query, a form or JSON body, a message): the value of each
   * `name=value` and `"name": value` of a secret name, and every secret value, replaced.
   */
  text(text: string): string {
    let out = text;
    if (out.includes('='))
      out = out.replace(PAIR, (whole, before: string, name: string) =>
        this.param(decodedName(name)) ? `${before}${name}=${REDACTED}` : whole,
      );
    if (out.includes('"'))
      out = out.replace(JSON_PAIR, (whole, name: string, colon: string) =>
        this.param(name) ? `"${name}"${colon}"${REDACTED}"` : whole,
      );
    return this.#withoutValues(out);
  }

  #walk(value: unknown, depth: number, byName: boolean): unknown {
    if (typeof value === 'string') return byName ? this.#leaf(value) : this.#withoutValues(value);
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, k) => {
        const kept = this.#walk(item, depth + 1, byName);
        if (kept === item) return;
        copy ??= [...value];
        copy[k] = kept;
      });
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    const object = value as Record<string, unknown>;
    for (const name of Object.keys(object)) {
      const item = object[name];
      const kept =
        byName && this.param(name) && item !== undefined
          ? REDACTED
          : this.#walk(item, depth + 1, byName);
      if (kept === item) continue;
      // No prototype: a `__proto__` key stays data, as in the decoded parameters.
      copy ??= Object.assign(Object.create(null), object) as Record<string, unknown>;
      copy[name] = kept;
    }
    return copy ?? value;
  }

  /** A decoded string value: raw text (a value kept undecoded) may hold pairs of its own. */
  #leaf(value: string): string {
    return value.includes('=') || value.includes('"')
      ? this.text(value)
      : this.#withoutValues(value);
  }

  #withoutValues(text: string): string {
    let out = text;
    for (const secret of this.#values)
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }
}

/** The list with no header or value of a user's own: what a recording and a replay share. */
export const DEFAULT_REDACTION = new Redaction();

function lowerName(name: string): string {
  return name.toLowerCase().replace(/_/g, '-');
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A form or query name as a server reads it (`access%5Ftoken`, `x+api+key`). */
function decodedName(name: string): string {
  if (!name.includes('%') && !name.includes('+')) return name;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
