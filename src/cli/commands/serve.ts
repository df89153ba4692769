import { setFlagsFromString } from 'node:v8';
import { contractAnswerCheck } from '../../api/answer-check.ts';
import { type AppFetch, createApp, type HrmockApp } from '../../http/app.ts';
import { MAX_RATE } from '../../node/rate-limit.ts';
import { startServer } from '../../node/server.ts';
import { RecordingError } from '../../recording/recording-files.ts';
import { replayFetch } from '../../recording/replay-fetch.ts';
import type { StoreData } from '../../store/types.ts';
import { EXIT, finalStatus, prepareCommand, splitAtCommand } from '../child-command.ts';
import { lazyFixturesFrom } from '../fixture-options.ts';
import { loadFixturesDir } from '../fixtures-dir.ts';
import { watchFixtures } from '../fixtures-watch.ts';
import { listenFailure, stopSignal } from '../listening.ts';
import { UsageError } from '../usage-error.ts';
import { announcement } from './serve-banner.ts';
import { chaosFrom, type ServeSettings, serveSettings } from './serve-settings.ts';

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
  --journal-size N  requests kept for GET /_mock/requests (default 1000, or 0 with --admin
                    off; 0 turns it off)
  --journal-bytes N memory the journal may use in all (default 33554432, 32 MiB); the oldest
                    requests go to stay inside it; each URL, body and set of headers is cut
                    at 64 KiB
  --redact-header H a header (and parameter) the journal keeps as [redacted], besides
                    X-API-KEY, Authorization, Proxy-Authorization, Cookie, Set-Cookie,
                    X-USER-EMAIL and names holding api_key, token, secret, password,
                    session, signature or credential; repeat for several
  --allowed-host H  a host name the admin API answers besides localhost, 127.0.0.1, [::1]
                    and --host (403 otherwise), e.g. the name other containers reach it by;
                    repeat for several
  --admin-origin O  a browser app allowed to call the admin API (CORS for exactly that
                    origin), e.g. http://localhost:5173; by default the admin API is
                    same-origin; repeat for several
  --rate-limit N/s  at most N requests a second per API key (per client address without
                    one) on the API's operations; the next gets a 429 with Retry-After (off
                    by default; N from 1 to ${MAX_RATE})
  --replay DIR      answer each request recorded by hrmock proxy --record DIR with its
                    recorded status and body; anything else from the fixtures
  --replay-strict   with --replay: a request of the six operations that no recording matches
                    gets a 404 envelope showing its normalised key

hrmock serve [options] -- CMD [ARGS…] starts the mock, runs CMD (no shell; its output is
hrmock's) with HRMOCK_URL (the mock's URL, base path included) and HRMOCK_PORT in its
environment, passes on the SIGINT and SIGTERM hrmock receives, and once CMD ends stops the
mock and exits with CMD's status (128 + N when signal N ended it); 2 if CMD cannot be started.
  e.g. hrmock serve --port 0 --base-path /v1 -- npm run test:e2e`;

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
  const started = performance.now();
  const { own, command } = splitAtCommand(args);
  const settings = serveSettings(own);
  const { values } = settings;
  const fixtures = lazyFixturesFrom(values);
  const data = await dataOf(settings, fixtures);
  const app = appOf(settings, data, fixtures.seed);
  const replay =
    values.replay === undefined
      ? undefined
      : replayOver(app, values.replay, values['replay-strict'] === true);
  const server = await listen(app, settings, replay);
  const base = `${server.url}${values['base-path'] ? `/${values['base-path'].replace(/^\/+|\/+$/g, '')}` : ''}`;
  // With `-- CMD`, the signals go to CMD, and the mock stops once CMD ends.
  const stopped = command === undefined ? stopSignal() : undefined;
  const pending = command === undefined ? undefined : prepareCommand(command);
  if (values.fixtures !== undefined)
    watchFixtures(values.fixtures, settings.mode, fixtures, app.state, {
      maxDepth: app.state.limits.jsonDepth,
    });
  process.stdout.write(announcement(app, settings, base, fixtures.seed, started));
  if (pending === undefined) {
    await stopped;
    await server.close();
    return EXIT.clean;
  }
  process.stdout.write(
    `hrmock serve: running ${pending.command.join(' ')} with HRMOCK_URL=${base}\n`,
  );
  const run = pending.start({ HRMOCK_URL: base, HRMOCK_PORT: String(server.port) });
  const end = await run.ended;
  await server.close();
  if ('notStarted' in end) process.stderr.write(`hrmock serve: ${end.notStarted}\n`);
  return finalStatus(end, EXIT.clean);
}

/** The fixtures generated, or merged with (or replaced by) a folder checked against the contract. */
async function dataOf(settings: ServeSettings, fixtures: StoreData): Promise<StoreData> {
  const { values, mode } = settings;
  if (values.fixtures === undefined) return fixtures;
  const loaded = await loadFixturesDir(values.fixtures, mode, fixtures, {
    maxDepth: settings.limits.jsonDepth,
    inline: true,
  });
  if (!loaded.ok)
    throw new UsageError(
      `the fixtures in ${values.fixtures} do not fit the contract:\n  ${loaded.problems.join('\n  ')}`,
    );
  return loaded.data;
}

function appOf(settings: ServeSettings, data: StoreData, seed: number): HrmockApp {
  const { values, apiKey } = settings;
  return createApp({
    data,
    ...(values['base-path'] !== undefined && { basePath: values['base-path'] }),
    ...(apiKey !== undefined && { apiKey }),
    ...(values.quiet && { log: false as const }),
    admin: settings.admin,
    journalSize: settings.journalSize,
    journalBytes: settings.journalBytes,
    ...(values['redact-header'] !== undefined && { redactHeaders: values['redact-header'] }),
    allowedHosts: settings.allowedHosts,
    adminOrigins: settings.adminOrigins,
    ...chaosFrom(values.latency, values['fail-rate'], seed),
    limits: settings.limits,
    checkAnswer: contractAnswerCheck(),
  });
}

/** The server on its port; a port in use or an address not of this machine is a usage error. */
async function listen(app: HrmockApp, settings: ServeSettings, fetch: AppFetch | undefined) {
  const { port, host, rateLimit } = settings;
  try {
    return await startServer(app, {
      port,
      host,
      answerCacheBytes: settings.answerCacheMb * 1024 * 1024,
      timeouts: settings.timeouts,
      compress: settings.compress,
      ...(rateLimit !== undefined && { rateLimit }),
      ...(fetch !== undefined && { fetch }),
    });
  } catch (error) {
    throw listenFailure(error, port, host);
  }
}

/** The app's fetch answering recorded requests from `dir`; an unreadable folder stops serve. */
function replayOver(app: HrmockApp, dir: string, strict: boolean): AppFetch {
  try {
    const replayed = replayFetch(app.fetch, { dir, strict, maxDepth: app.state.limits.jsonDepth });
    return async (request) => replayed(request);
  } catch (error) {
    if (error instanceof RecordingError) throw new UsageError(`--replay ${dir}: ${error.message}`);
    throw error;
  }
}
