import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback } from '../../contract/suite/pace.ts';
import { maxRps } from '../../src/cli/commands/check-options.ts';
import type { RunningServer } from '../../src/node/server.ts';
import type { Fetch } from '../mutants/mutants.ts';
import { checkCli, serveMock } from '../support/check-cli.ts';

/** The most requests that arrived within any one second. */
function busiestSecond(times: number[]): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] as number) - (times[from] as number) >= 1000) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

/** Notes when each request arrives, then lets the mock answer. */
function clocked(times: number[]): (fetch: Fetch) => Fetch {
  return (fetch) => async (request) => {
    times.push(performance.now());
    return fetch(request);
  };
}

/** Answers its first `n` API requests with 429 and `Retry-After`, then lets the mock answer. */
function busyFirst(n: number, retryAfter: string, seen: { count: number }) {
  return (fetch: Fetch): Fetch =>
    async (request) => {
      if (new URL(request.url).pathname.startsWith('/_mock/')) return fetch(request);
      seen.count++;
      if (seen.count > n) return fetch(request);
      return new Response(JSON.stringify({ code: 429, message: 'Too many requests' }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
      });
    };
}

const servers: RunningServer[] = [];
/** What a 429 does is the subject, not the rules: two of them make a run (ENV judging the other's answers). */
const NARROWED = ['--rule', 'ENV', '--rule', 'GRD-DEFAULT'];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function serve(wrap: (fetch: Fetch) => Fetch): Promise<RunningServer> {
  const server = await serveMock(wrap);
  servers.push(server);
  return server;
}

/** The pace of the paced run. */
const R = 100;

describe('--max-rps', () => {
  const paced: number[] = [];
  let pacedUrl: string;

  beforeAll(async () => {
    pacedUrl = (await serve(clocked(paced))).url;
  });

  it('holds a run of some 300 requests under R requests a second, measured at the server', async () => {
    const started = performance.now();
    // The pace is the subject, not the rules: ODD-TEXT alone sends ~300 requests, three times
    // what R lets through in a second, so an unpaced run would show in the busiest second.
    const args = ['--base-url', pacedUrl, '--max-rps', String(R), '--rule', 'ODD-TEXT'];
    const { code, out } = await checkCli(args);
    const seconds = (performance.now() - started) / 1000;
    expect(code, out).toBe(0);
    process.stdout.write(
      `--max-rps ${R}: ${paced.length} requests in ${seconds.toFixed(1)} s, busiest second ${busiestSecond(paced)}\n`,
    );
    expect(paced.length).toBeGreaterThan(2.5 * R);
    // Loosely: a slot may arrive a little late after an early one.
    expect(busiestSecond(paced)).toBeLessThanOrEqual(R * 1.1);
    expect(seconds).toBeGreaterThanOrEqual((paced.length - 1) / R - 1);
  }, 120_000);

  it('has a measure that can fail: an unpaced burst counts over R in its busiest second', () => {
    // What an unpaced run looks like at the server (the pacing itself: test/contract/pace.test.ts).
    const burst = Array.from({ length: 2 * R }, (_, i) => i * 5);
    expect(busiestSecond(burst)).toBe(2 * R);
    expect(busiestSecond(burst.map((t) => t * 2))).toBe(R);
  });

  it('defaults to unlimited on this machine and to 10 a second elsewhere', () => {
    expect(isLoopback('http://127.0.0.1:4010')).toBe(true);
    expect(isLoopback('http://localhost:4010/v1')).toBe(true);
    expect(isLoopback('http://[::1]:4010')).toBe(true);
    expect(isLoopback('https://staging.example.com/v1')).toBe(false);
    expect(maxRps(undefined, 10)).toBe(10);
    expect(maxRps('2.5', 10)).toBe(2.5);
    expect(maxRps('unlimited', 10)).toBe('unlimited');
  });

  it.each(['0', '-3', 'fast', ''])('refuses --max-rps %j, saying what to send', async (value) => {
    const { code, err } = await checkCli([`--max-rps=${value}`]);
    expect(code).toBe(2);
    expect(err).toMatch(/--max-rps takes requests a second, above 0 .* or "unlimited", got/);
  });
});

describe('a 429', () => {
  it('is waited out and sent again, never a failure', async () => {
    const seen = { count: 0 };
    const server = await serve(busyFirst(5, '1', seen));
    const { code, out } = await checkCli(['--base-url', server.url, ...NARROWED]);
    expect(out).toMatch('2 rules: 2 passed, 0 failed');
    expect(out).toMatch(/; 5 answers of 429 waited out/);
    expect(seen.count).toBeGreaterThan(5);
    expect(code).toBe(0);
  }, 60_000);

  it('is waited out on the target the mock serves too', async () => {
    let told = false;
    const server = await serve((fetch) => async (request) => {
      if (told || !new URL(request.url).pathname.startsWith('/_mock/target')) return fetch(request);
      told = true;
      return new Response('{"code":429,"message":"Too many requests"}', {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
      });
    });
    const { code, out } = await checkCli(['--base-url', server.url, ...NARROWED]);
    expect(told).toBe(true);
    expect(out).toMatch('2 rules: 2 passed, 0 failed');
    expect(code).toBe(0);
  }, 60_000);

  it('fails its request when Retry-After goes past the deadline', async () => {
    const seen = { count: 0 };
    const server = await serve(busyFirst(1_000_000, '600', seen));
    const args = ['--base-url', server.url, '--deadline', '30', '--rule', 'GRD-DEFAULT'];
    const { code, out } = await checkCli(args);
    expect(out).toMatch('1 rule: 0 passed, 1 failed');
    expect(code).toBe(1);
    expect(out).toMatch(/got: {6}answered 429 with Retry-After 600 s, past the run's deadline/);
  });
});
