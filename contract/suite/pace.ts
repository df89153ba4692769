/** How fast a run may send: requests a second, or no limit. */
export type PaceLimit = number | 'unlimited';

/**
 * Keeps a whole run under `rps` requests a second: each request goes at least 1/rps s after the
 * previous one went (measured when it went, not when it was due), so any one-second window holds
 * at most `rps` of them. Callers queue: two at once still go one gap apart.
 */
export class Pace {
  readonly rps: PaceLimit;
  readonly #gapMs: number;
  #last = Number.NEGATIVE_INFINITY;
  #queue: Promise<void> = Promise.resolve();

  constructor(rps: PaceLimit) {
    this.rps = rps;
    this.#gapMs = rps === 'unlimited' ? 0 : 1000 / rps;
  }

  /** Resolves when the next request may go. */
  take(): Promise<void> {
    if (this.#gapMs === 0) return Promise.resolve();
    this.#queue = this.#queue.then(async () => {
      // A timer may fire a little early: wait until the gap has really passed.
      for (let left = this.#last + this.#gapMs - performance.now(); left > 0; ) {
        await sleep(Math.ceil(left));
        left = this.#last + this.#gapMs - performance.now();
      }
      this.#last = performance.now();
    });
    return this.#queue;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What a 429 asks to wait when it says nothing usable. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

/** A `Retry-After` value (seconds or an HTTP date) as milliseconds from `now`. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (value === null || value.trim() === '') return DEFAULT_RETRY_AFTER_MS;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, at - now);
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** A base URL on this machine, where no one else shares the server's capacity. */
export function isLoopback(baseUrl: string): boolean {
  return LOOPBACK.test(new URL(baseUrl).hostname);
}

/** Requests a second when `--max-rps` is absent and the base URL is another machine. */
export const DEFAULT_REMOTE_RPS = 10;
