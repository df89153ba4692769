import { DEFAULT_REDACTION, type Redaction } from '../redaction.ts';

/** The most a copy of one request's headers holds, counted as its JSON may take in UTF-8. */
export const MAX_HEADER_BYTES = 64 * 1024;

type SentHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Copies of request headers with every secret replaced by `[redacted]`, at most `maxBytes` of
 * them: past that, the value reached is cut with a marker and the headers after it are left out.
 */
export class HeaderCopies {
  readonly #redaction: Redaction;
  readonly #maxBytes: number;
  #last: Record<string, string> | undefined;
  #lastCount = 0;
  /** The bytes the last copy's headers took in all when it was cut, else 0. */
  cutFrom = 0;

  constructor(redaction: Redaction = DEFAULT_REDACTION, maxBytes = MAX_HEADER_BYTES) {
    this.#redaction = redaction;
    this.#maxBytes = maxBytes;
  }

  /**
   * The headers as kept (secrets redacted), shared with the entry before when they are the same:
   * a client sends the same headers each time, and an object kept per request outlives the young
   * generation and costs the server more than the recording itself. Kept headers are never changed.
   */
  copy(headers: SentHeaders): Record<string, string> {
    const last = this.#last;
    if (last !== undefined && this.cutFrom === 0 && this.#same(last, headers)) return last;
    const kept: Record<string, string> = {};
    let count = 0;
    let room = this.#maxBytes;
    let sent = 0;
    const keep = (name: string, value: string) => {
      // Each character may take two bytes, and a quote or backslash two characters.
      const size = name.length + 2 * value.length + 6;
      sent += size;
      if (room < 0) return;
      const fits = size <= room;
      // The value reached is cut to the room left, unless its name alone would not fit.
      const cuttable = !fits && room - name.length >= MARKER_ROOM;
      room -= size;
      if (!fits && !cuttable) return;
      const shown = this.#kept(name, value);
      kept[name] = fits ? shown : cut(shown, room + size - name.length - MARKER_ROOM);
      count++;
    };
    if (headers instanceof Headers)
      headers.forEach((value, name) => {
        keep(name, value);
      });
    else
      for (const name in headers) {
        const value = headers[name];
        if (value !== undefined) keep(name, Array.isArray(value) ? value.join(', ') : value);
      }
    this.#last = kept;
    this.#lastCount = count;
    this.cutFrom = room < 0 ? sent : 0;
    return kept;
  }

  /** Whether `headers`, secrets redacted, are the `last` ones: compared without a copy. */
  #same(last: Record<string, string>, headers: SentHeaders): boolean {
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
    return this.#redaction.headerValue(name, value);
  }
}

/** Room for the quotes and the marker of a cut value. */
const MARKER_ROOM = 64;

/** A value cut to `room` (counted as `keep` counts), with a marker and its length. */
function cut(value: string, room: number): string {
  return `${value.slice(0, Math.floor(room / 2))}…[truncated: ${value.length} bytes]`;
}
