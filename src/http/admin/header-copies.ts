export const REDACTED = '[redacted]';
const ALWAYS_REDACTED = ['x-api-key', 'authorization', 'cookie', 'proxy-authorization'];

/** Copies of request headers with every secret replaced by `[redacted]`. */
export class HeaderCopies {
  readonly #secret: Set<string>;
  #last: Record<string, string> | undefined;
  #lastCount = 0;

  /** `redact`: header names kept as `[redacted]` besides keys, authorization and cookies. */
  constructor(redact: string[] = []) {
    this.#secret = new Set([...ALWAYS_REDACTED, ...redact.map((h) => h.toLowerCase())]);
  }

  /**
   * The headers as kept (secrets redacted), shared with the entry before when they are the same:
   * a client sends the same headers each time, and an object kept per request outlives the young
   * generation and costs the server more than the recording itself. Kept headers are never changed.
   */
  copy(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
    const last = this.#last;
    if (last !== undefined && this.#same(last, headers)) return last;
    const kept: Record<string, string> = {};
    let count = 0;
    if (headers instanceof Headers)
      headers.forEach((value, name) => {
        kept[name] = this.#kept(name, value);
        count++;
      });
    else
      for (const name in headers) {
        const value = headers[name];
        if (value === undefined) continue;
        kept[name] = this.#kept(name, Array.isArray(value) ? value.join(', ') : value);
        count++;
      }
    this.#last = kept;
    this.#lastCount = count;
    return kept;
  }

  /** Whether `headers`, secrets redacted, are the `last` ones: compared without a copy. */
  #same(
    last: Record<string, string>,
    headers: Headers | Record<string, string | string[] | undefined>,
  ): boolean {
    let count = 0;
    if (headers instanceof Headers) {
      let same = true;
      headers.forEach((value, name) => {
        same &&= last[name] === this.#kept(name, value);
        count++;
      });
      return same && count === this.#lastCount;
    }
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      if (last[name] !== this.#kept(name, text)) return false;
      count++;
    }
    return count === this.#lastCount;
  }

  #kept(name: string, value: string): string {
    return this.#secret.has(name) ? REDACTED : value;
  }
}
