import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pace } from '../../contract/suite/pace.ts';

// The pacing of `--max-rps` on a fake clock: what goes when is counted, never timed.
afterEach(() => {
  vi.useRealTimers();
});

/** Starts `n` callers at once on `pace`; the fake clock's time at which each one may go. */
async function goTimes(pace: Pace, n: number): Promise<number[]> {
  const times: number[] = [];
  const all = Array.from({ length: n }, () =>
    pace.take().then(() => times.push(performance.now())),
  );
  await vi.runAllTimersAsync();
  await Promise.all(all);
  return times;
}

describe('Pace', () => {
  it('lets at most R go in any one second, one gap of 1/R s apart, however many wait at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const times = await goTimes(new Pace(20), 61);
    expect(times).toHaveLength(61);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(50);
    const inFirstSecond = times.filter((t) => t - (times[0] as number) < 1000);
    expect(inFirstSecond).toHaveLength(20);
    // 61 requests at 20 a second span three seconds of the fake clock.
    expect((times[60] as number) - (times[0] as number)).toBeGreaterThanOrEqual(3000);
  });

  it('counts a fraction of a request a second as a longer gap', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const times = await goTimes(new Pace(2.5), 4);
    expect((times[3] as number) - (times[0] as number)).toBeGreaterThanOrEqual(1200);
  });

  it('holds nobody back when unlimited: every caller goes without the clock moving', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const start = performance.now();
    const times = await goTimes(new Pace('unlimited'), 100);
    expect(times).toHaveLength(100);
    expect(times.every((t) => t === start)).toBe(true);
  });
});
