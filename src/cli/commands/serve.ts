import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { targetOf } from '../../hr/target.ts';
import { createApp, DEFAULT_LIMITS, type HrmockApp } from '../../http/app.ts';
import type { Chaos } from '../../http/chaos.ts';
import { DEFAULT_TIMEOUTS } from '../../node/connections.ts';
import { MAX_RATE } from '../../node/rate-limit.ts';
import { startServer } from '../../node/server.ts';
import { RecordingError } from '../../recording/recording-files.ts';
import { replayFetch } from '../../recording/replay-fetch.ts';
import type { StoreData } from '../../store/types.ts';
import { FIXTURE_FLAGS, lazyFixturesFrom } from '../fixture-options.ts';
import { loadFixturesDir } from '../fixtures-dir.ts';
import { watchFixtures } from '../fixtures-watch.ts';
import { durationMs, positiveInt, UsageError } from '../usage-error.ts';

export const SERVE_HELP = `hrmock serve: run the mock server

  --port N          port to listen on (default 4010; 0 picks a free one)
  --host H          address to listen on (default 127.0.0.1)
  --seed N          fixture seed (default 42); the same seed serves the same data
  --profiles N      how many profiles (default 1000)
  --jobs N          how many jobs (default 300)
  --base-path P     serve under a prefix, e.g. /v1 (default /)
  --api-key K       require X-API-KEY: K on API requests (401 otherwise); better, set
                    HRMOCK_API_KEY=K in the environment: a flag shows in ps, the environment
                    does not (the flag wins when both are given)
  --quiet           no per-request log lines
  --fixtures DIR    your own sources.json, boards.json, profiles.json, jobs.json (as written by
                    hrmock fixtures --out), checked against the contract, reloaded on change
  --fixtures-mode M merge (default: with the generated data) or replace (only yours)
  --latency A-B         every answer waits A to B ms (seeded by --seed, so a run replays)
  --fail-rate R         this share of answers (0 to 1) are 500s (seeded by --seed)
  --max-body-bytes N    largest request body (default 1048576; 413 above)
  --max-url-bytes N     longest path and query (default 16384; 414 above, pointing at POST)
  --max-json-depth N    deepest JSON body nesting (default 64; 400 above)
  --answer-cache-mb N  memory for whole answers to repeated requests, served as bytes
                    (gzipped when the client accepts it); 0 turns it off (default 64)
  --compress M      auto (default): gzip for clients that accept it, made from compressed
                    objects for fresh answers; off: never compress
  --headers-timeout S   seconds a client has to send its headers (default 10; 408 after)
  --request-timeout S   seconds a client has to send its whole request (default 30; 408 after)
  --keep-alive-timeout S  seconds an idle keep-alive connection stays open (default 5)
  --write-timeout S     seconds a client may leave its answer unread before the connection
                        is closed (default 30)
  --admin M         on (default): the admin API under /_mock/ (scenarios, requests, reset;
                    behind --api-key when set); off: removed (404)
  --journal-size N  requests kept for GET /_mock/requests (default 1000; 0 turns it off)
  --redact-header H a header the journal keeps as [redacted] (besides X-API-KEY,
                    Authorization and cookies); repeat for several
  --rate-limit N/s  at most N requests a second per API key (per client address without
                    one) on the API's operations; the next gets a 429 with Retry-After (off
                    by default; N from 1 to ${MAX_RATE})
  --replay DIR      answer each request recorded by hrmock proxy --record DIR with its
                    recorded status and body; anything else from the fixtures
  --replay-strict   with --replay: a request of the six operations that no recording matches
                    gets a 404 envelope showing its normalised key`;

/**
 * V8 moves an allocation site's objects straight to the old generation once most of them are
 * seen to survive a young collection (allocation-site pretenuring), and keeps doing so until a
 * full collection finds them dead. A server's answers die young, but a burst of requests in
 * flight at one young collection can look long-lived: in two of four runs of 100,000 profiles
 * under load, sites on the answer path were tenured and the old generation grew by ~40 MB a
 * second of garbage (resident memory 610 to 800 MB against ~500 MB in the other runs and in
 * every run with pretenuring off). The server is a process of hrmock's own, so it turns it off;
 * a test runner that starts the mock in process (`startMock`) keeps its own settings.
 */
function tuneHeapForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

export async function serveCommand(args: string[]): Promise<number> {
  tuneHeapForServing();
  const { values } = parseArgs({
    args,
    options: {
      ...FIXTURE_FLAGS,
      port: { type: 'string' },
      host: { type: 'string' },
      'base-path': { type: 'string' },
      'api-key': { type: 'string' },
      quiet: { type: 'boolean' },
      'answer-cache-mb': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'max-url-bytes': { type: 'string' },
      'max-json-depth': { type: 'string' },
      latency: { type: 'string' },
      fixtures: { type: 'string' },
      'fixtures-mode': { type: 'string' },
      'fail-rate': { type: 'string' },
      compress: { type: 'string' },
      'headers-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      'keep-alive-timeout': { type: 'string' },
      'write-timeout': { type: 'string' },
      admin: { type: 'string' },
      'journal-size': { type: 'string' },
      'redact-header': { type: 'string', multiple: true },
      'rate-limit': { type: 'string' },
      replay: { type: 'string' },
      'replay-strict': { type: 'boolean' },
    },
    strict: true,
  });
  const apiKey = values['api-key'] ?? nonEmpty(process.env.HRMOCK_API_KEY);
  const compress = values.compress ?? 'auto';
  if (compress !== 'auto' && compress !== 'off')
    throw new UsageError(`--compress must be auto or off, got "${compress}"`);
  const timeouts = {
    headersMs: durationMs('headers-timeout', values['headers-timeout'], DEFAULT_TIMEOUTS.headersMs),
    requestMs: durationMs('request-timeout', values['request-timeout'], DEFAULT_TIMEOUTS.requestMs),
    keepAliveMs: durationMs(
      'keep-alive-timeout',
      values['keep-alive-timeout'],
      DEFAULT_TIMEOUTS.keepAliveMs,
    ),
    writeMs: durationMs('write-timeout', values['write-timeout'], DEFAULT_TIMEOUTS.writeMs),
  };
  const admin = values.admin ?? 'on';
  if (admin !== 'on' && admin !== 'off')
    throw new UsageError(`--admin must be on or off, got "${admin}"`);
  const journalSize = positiveInt('journal-size', values['journal-size'], 1000, 0);
  const rateLimit = rateFrom(values['rate-limit']);
  const port = positiveInt('port', values.port, 4010, 0);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const started = performance.now();
  const fixtures = lazyFixturesFrom(values);
  const mode = values['fixtures-mode'] ?? 'merge';
  if (mode !== 'merge' && mode !== 'replace')
    throw new UsageError(`--fixtures-mode must be merge or replace, got "${mode}"`);
  let data: StoreData = fixtures;
  if (values.fixtures !== undefined) {
    const loaded = await loadFixturesDir(values.fixtures, mode, fixtures, {
      maxDepth: positiveInt('max-json-depth', values['max-json-depth'], DEFAULT_LIMITS.jsonDepth),
      inline: true,
    });
    if (!loaded.ok)
      throw new UsageError(
        `the fixtures in ${values.fixtures} do not fit the contract:\n  ${loaded.problems.join('\n  ')}`,
      );
    data = loaded.data;
  }
  const app = createApp({
    data,
    ...(values['base-path'] !== undefined && { basePath: values['base-path'] }),
    ...(apiKey !== undefined && { apiKey }),
    ...(values.quiet && { log: false as const }),
    admin: admin === 'on',
    journalSize,
    ...(values['redact-header'] !== undefined && { redactHeaders: values['redact-header'] }),
    ...chaosFrom(values.latency, values['fail-rate'], fixtures.seed),
    limits: {
      bodyBytes: positiveInt('max-body-bytes', values['max-body-bytes'], DEFAULT_LIMITS.bodyBytes),
      urlBytes: positiveInt('max-url-bytes', values['max-url-bytes'], DEFAULT_LIMITS.urlBytes),
      jsonDepth: positiveInt('max-json-depth', values['max-json-depth'], DEFAULT_LIMITS.jsonDepth),
    },
  });
  if (values['replay-strict'] && values.replay === undefined)
    throw new UsageError(
      '--replay-strict needs --replay DIR: the folder hrmock proxy --record wrote',
    );
  if (values.replay !== undefined) replayInto(app, values.replay, values['replay-strict'] === true);
  const host = values.host ?? '127.0.0.1';
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    const cacheMb = positiveInt('answer-cache-mb', values['answer-cache-mb'], 64, 0);
    server = await startServer(app, {
      port,
      host,
      answerCacheBytes: cacheMb * 1024 * 1024,
      timeouts,
      compress,
      ...(rateLimit !== undefined && { rateLimit }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(
        `port ${port} is already in use on ${host}: stop the other server or pick another --port`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`cannot listen on ${host}: not an address of this machine`);
    throw error;
  }
  const base = `${server.url}${values['base-path'] ? `/${values['base-path'].replace(/^\/+|\/+$/g, '')}` : ''}`;
  // Listen for the stop signals before announcing the URL: a client that sends SIGTERM as soon
  // as it reads the URL must find a handler, not the default disposition that kills at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  if (values.fixtures !== undefined)
    watchFixtures(values.fixtures, mode, fixtures, app, {
      maxDepth: app.settings.limits.jsonDepth,
    });
  const target = targetOf(app.store);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const sizes = `${app.store.profile.docs.length} profiles and ${app.store.job.docs.length} jobs`;
  const sourceKeys = encodeURIComponent(JSON.stringify(target.profiles.source_keys.slice(0, 1)));
  const profileIds = encodeURIComponent(JSON.stringify(target.profiles.profile_ids.slice(0, 2)));
  const examples = [
    `curl '${base}/profiles/searching?source_keys=${sourceKeys}&text_keywords=${encodeURIComponent('["python"]')}&limit=2'`,
    `curl '${base}/profiles/grading?algorithm_key=${target.profiles.algorithm_key}&board_key=${target.profiles.board_key}&job_key=${target.profiles.job_key}&profile_ids=${profileIds}'`,
  ];
  process.stdout.write(
    `hrmock: ${sizes} (seed ${fixtures.seed}${values.fixtures ? `, ${mode}d with ${values.fixtures}` : ''}) at ${base} (ready in ${seconds}s)\n` +
      `${options(apiKey)}${values.replay ? `Replaying the recordings in ${values.replay}${values['replay-strict'] ? ' (strict: no recording, a 404)' : ''}.\n` : ''}Try:\n${examples.map((e) => `  ${e}\n`).join('')}Contract: ${base}/openapi.yaml   Target for hrmock check: ${base}/_mock/target\n`,
  );
  await stopped;
  await server.close();
  return 0;
}

/** Answers recorded requests from `dir`; a folder that cannot be read stops the command. */
function replayInto(app: HrmockApp, dir: string, strict: boolean): void {
  try {
    app.fetch = replayFetch(app.fetch, { dir, strict, maxDepth: app.settings.limits.jsonDepth });
  } catch (error) {
    if (error instanceof RecordingError) throw new UsageError(`--replay ${dir}: ${error.message}`);
    throw error;
  }
}

function chaosFrom(
  latency: string | undefined,
  failRate: string | undefined,
  seed: number,
): { chaos?: Chaos } {
  if (latency === undefined && failRate === undefined) return {};
  const chaos: Chaos = { seed };
  if (latency !== undefined) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(latency);
    const min = Number(range?.[1]);
    const max = Number(range?.[2] ?? range?.[1]);
    if (!range || min > max || max > 60_000)
      throw new UsageError(
        `--latency takes MIN-MAX milliseconds up to 60000, e.g. 50-300, got "${latency}"`,
      );
    chaos.latency = { min, max };
  }
  if (failRate !== undefined) {
    const rate = Number(failRate);
    if (failRate.trim() === '' || !(rate >= 0 && rate <= 1))
      throw new UsageError(`--fail-rate takes a share from 0 to 1, e.g. 0.05, got "${failRate}"`);
    chaos.failRate = rate;
  }
  return { chaos };
}

/** `--rate-limit N/s`: requests a second, or undefined when the flag is absent. */
function rateFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(\d+)\s*\/\s*s\s*$/.exec(value);
  const rate = Number(match?.[1]);
  if (match === null || !(rate >= 1 && rate <= MAX_RATE))
    throw new UsageError(
      `--rate-limit takes requests a second as N/s with N from 1 to ${MAX_RATE}, e.g. 10/s, got "${value}"`,
    );
  return rate;
}

function options(apiKey: string | undefined): string {
  return apiKey === undefined
    ? ''
    : 'Requests must carry the X-API-KEY header given by --api-key or HRMOCK_API_KEY.\n';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
