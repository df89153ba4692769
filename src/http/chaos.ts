import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.ts';

export type Chaos = {
  /** Every answer waits a random time in this range, in ms. */
  latency?: { min: number; max: number };
  /** This share of answers (0 to 1) are a 500 envelope. */
  failRate?: number;
  /** The same seed gives the same sequence of delays and failures, so a run can be replayed. */
  seed: number;
};

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Server-wide latency and failures on purpose (`--latency 50-300`, `--fail-rate 0.05`). */
export function chaosMiddleware(chaos: Chaos): MiddlewareHandler {
  const random = seededRandom(chaos.seed);
  return async (_c, next) => {
    // Draw both numbers for every request, so the sequence depends only on the request count.
    const delayDraw = random();
    const failDraw = random();
    if (chaos.latency) {
      const { min, max } = chaos.latency;
      await new Promise((resolve) =>
        setTimeout(resolve, min + Math.floor(delayDraw * (max - min + 1))),
      );
    }
    if (chaos.failRate !== undefined && failDraw < chaos.failRate) {
      throw new ApiError(
        500,
        `Internal server error (simulated by --fail-rate ${chaos.failRate}). Retry later; if it persists, report the request.`,
      );
    }
    await next();
  };
}
