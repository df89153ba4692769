// npm run bench: hrmock against Prism (static and dynamic) and against a bare node:http server
// writing the same bytes, with the same requests, headers and connections, in one run.
// Environment: BENCH_SECONDS (default 8) per measurement, BENCH_CONNECTIONS (default 16),
// BENCH_ONLY=small|large to run only the 1,000- or the 100,000-profile half. The 100,000-profile
// half ends with the "worst crafted request" row: the slowest search a generator builds within
// the request limits (crafted.ts), each timed alone.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Crafted, craftedRequests } from './crafted.ts';
import { journalRows } from './journal.ts';
import { drive, ensureWrk, HEADERS, type Load, type LoadRequest } from './load.ts';
import {
  type Child,
  firstAnswerMs,
  residentMb,
  startBare,
  startHrmock,
  startPrismMock,
} from './processes.ts';
import { proxyOverhead, proxyRow } from './proxy.ts';
import { type Scenario, scenarios } from './scenarios.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const root = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'hrmock-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

type Row = { scenario: string; server: string; load: Load; vsPrism?: number; vsLimit?: number };
const rows: Row[] = [];
const facts: Record<string, number> = {};

/** The answer's bytes as sent (node:http does not undo gzip, fetch would). */
function answerBytes(base: string, request: LoadRequest): Promise<{ body: Buffer; gzip: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${request.path}`,
      // A connection of its own: a kept one may have timed out on the server between two uses.
      { method: request.method, headers: HEADERS, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200)
            reject(new Error(`${request.method} ${request.path} answered ${res.statusCode}`));
          else
            resolve({
              body: Buffer.concat(chunks),
              gzip: res.headers['content-encoding'] === 'gzip',
            });
        });
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

async function measure(
  scenario: string,
  server: string,
  url: string,
  requests: LoadRequest[],
): Promise<Row> {
  await warm(url, requests);
  const row: Row = {
    scenario,
    server,
    load: checked(drive(url, requests, { connections, seconds }), server, scenario),
  };
  rows.push(row);
  return row;
}

/**
 * Warm-up: every distinct request answered once (the first sight of an object builds its JSON
 * and its compressed bytes, kept for later answers), then a second of load (JIT, connections).
 */
async function warm(url: string, requests: LoadRequest[]) {
  if (requests.length > 1) for (const request of requests) await answerBytes(url, request);
  drive(url, requests, { connections, seconds: 1 });
}

function checked(load: Load, server: string, scenario: string): Load {
  if (load.errors > 0 || load.non2xx > 0)
    throw new Error(
      `${server}, ${scenario}: ${load.errors} errors, ${load.non2xx} non-2xx answers`,
    );
  return load;
}

/** The middle item by `value` (of an odd count). */
function median<T>(items: T[], value: (item: T) => number): T {
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)] as T;
}

type Servers = {
  /** hrmock with its answer cache, sent one request again and again. */
  cached?: Child;
  /** hrmock without it (`--answer-cache-mb 0`), sent the distinct requests. */
  uncached?: Child;
  /** The same, with `--compress off`: what compression costs or saves on loopback. */
  plain?: Child;
  prism?: { static: Child; dynamic: Child };
};

/**
 * Rounds of a server and of its limit, taken in turn: the machines are shared, and their speed
 * drifts more in one measurement's time than the rows differ (two runs of the same server, one
 * after the other, came out 0.36 and 0.45 of their limits when each was measured once).
 */
const LIMIT_ROUNDS = 5;
const ROUND_SECONDS = 2;

/**
 * A row of hrmock and the row of a bare node:http server writing the bytes hrmock wrote, measured
 * in `LIMIT_ROUNDS` alternating rounds: each row shows its median round, and the ratio is the
 * median of the rounds' ratios, each of two measurements taken one right after the other.
 */
async function againstLimit(
  scenario: string,
  server: string,
  child: Child,
  requests: LoadRequest[],
) {
  const first = requests[0] as LoadRequest;
  const bytes = await answerBytes(child.url, first);
  const bodyFile = join(scratch, `${scenario.replace(/\W+/g, '-')}-${rows.length}.bin`);
  writeFileSync(bodyFile, bytes.body);
  const bare = await startBare(bodyFile, bytes.gzip);
  const limitName = `node:http, same bytes as above${bytes.gzip ? ' (gzip)' : ''}, ${(bytes.body.length / 1024).toFixed(1)} KB`;
  // Sent the very requests hrmock was sent, so the load client does the same work for both.
  await warm(child.url, requests);
  await warm(bare.url, requests);
  const mine: Load[] = [];
  const limit: Load[] = [];
  const round = { connections, seconds: ROUND_SECONDS };
  for (let k = 0; k < LIMIT_ROUNDS; k++) {
    mine.push(checked(drive(child.url, requests, round), server, scenario));
    limit.push(checked(drive(bare.url, requests, round), limitName, scenario));
  }
  await bare.stop();
  const ratios = mine.map((m, k) => m.reqPerSec / (limit[k] as Load).reqPerSec);
  const perSecond = (load: Load) => load.reqPerSec;
  rows.push(
    { scenario, server, load: median(mine, perSecond), vsLimit: median(ratios, (r) => r) },
    { scenario, server: limitName, load: median(limit, perSecond) },
  );
}

/**
 * One scenario on every server: hrmock answering from its cache (one request repeated), hrmock
 * answering distinct requests without it (gzip on and off), each against the limit of its own
 * bytes, and Prism (static and dynamic) sent the distinct requests.
 */
async function compare(scenario: Scenario, servers: Servers) {
  const { name } = scenario;
  if (servers.cached)
    await againstLimit(name, 'hrmock, answer cache (one request repeated)', servers.cached, [
      scenario.one,
    ]);
  if (servers.uncached)
    await againstLimit(
      name,
      `hrmock --answer-cache-mb 0, ${scenario.distinct.length} distinct`,
      servers.uncached,
      scenario.distinct,
    );
  if (servers.plain)
    await againstLimit(
      name,
      `hrmock --answer-cache-mb 0 --compress off, ${scenario.distinct.length} distinct`,
      servers.plain,
      scenario.distinct,
    );
  if (servers.prism) {
    const staticRow = await measure(
      name,
      'prism mock',
      servers.prism.static.url,
      scenario.distinct,
    );
    const dynamicRow = await measure(
      name,
      'prism mock --dynamic',
      servers.prism.dynamic.url,
      scenario.distinct,
    );
    const best = Math.max(staticRow.load.reqPerSec, dynamicRow.load.reqPerSec);
    for (const row of rows.filter((r) => r.scenario === name && r.server.startsWith('hrmock'))) {
      row.vsPrism = row.load.reqPerSec / best;
    }
  }
}

/** A server, once it has answered; spawn to first answer is noted for 100,000 profiles. */
async function startup(
  profiles: number,
  answerCacheMb?: number,
  extra: string[] = [],
): Promise<Child> {
  const started = performance.now();
  const child = await startHrmock(profiles, {
    ...(answerCacheMb !== undefined && { answerCacheMb }),
    extra,
  });
  await (await fetch(`${child.url}/_mock/target`)).arrayBuffer();
  if (profiles === 100_000) facts.startup_ms_100000 = performance.now() - started;
  return child;
}

/**
 * Start-up with 1,000 profiles, the median of `STARTUP_RUNS` servers run as `npm start` runs one
 * (a single start swung from 0.8 to 1.2 s between runs of this machine).
 */
const STARTUP_RUNS = 5;

/**
 * The slowest request a generator builds within the limits (`crafted.ts`), each timed alone,
 * after the first SDK-filter search on the fresh server, timed apart (it must not wait for any
 * data to be built).
 */
async function worstCrafted(base: string) {
  const target = (await (await fetch(`${base}/_mock/target`)).json()) as {
    data: { profiles: { source_keys: string[] } };
  };
  const sourceKeys = target.data.profiles.source_keys;
  const first = performance.now();
  const built = await fetch(`${base}/profiles/searching`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source_keys: sourceKeys, summary_keywords: ['team'] }),
  });
  await built.arrayBuffer();
  if (built.status !== 200) throw new Error(`the first SDK-filter search answered ${built.status}`);
  facts.first_sdk_filter_ms = performance.now() - first;
  const tried = await craftedRequests(base, sourceKeys);
  const worst = tried[0] as Crafted;
  const times = tried.map((t) => t.ms).sort((a, b) => a - b);
  const status = new Map<number, number>();
  for (const t of tried) status.set(t.status, (status.get(t.status) ?? 0) + 1);
  rows.push({
    scenario: `worst crafted request (slowest of ${tried.length} generated; answers ${[...status].map(([code, n]) => `${n}× ${code}`).join(', ')})`,
    server: 'hrmock --answer-cache-mb 0, one request at a time',
    load: {
      reqPerSec: 1000 / worst.ms,
      p50: Math.round(times[Math.floor(times.length / 2)] as number),
      p99: Math.round(worst.ms),
      errors: 0,
      non2xx: 0,
      requests: tried.length,
    },
  });
  facts.worst_crafted_ms = worst.ms;
  facts.worst_crafted_status = worst.status;
  crafted = worst;
}

let crafted: Crafted | undefined;
let proxyLines = '';

function table(): string {
  const lines = [
    '| scenario | server | req/s | p50 ms | p99 ms | × best Prism | × limit |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const cells = [
      r.scenario,
      r.server,
      Math.round(r.load.reqPerSec),
      r.load.p50,
      r.load.p99,
      r.vsPrism?.toFixed(2) ?? '',
      r.vsLimit?.toFixed(2) ?? '',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

ensureWrk();
const only = process.env.BENCH_ONLY;
if (only !== 'large') {
  const first = await firstAnswerMs(['bin/hrmock.js'], 1000, STARTUP_RUNS);
  facts.startup_ms_1000 = first.median;
  facts.startup_ms_1000_min = first.min;
  facts.startup_ms_1000_max = first.max;
  const small = await startup(1000);
  const smallUncached = await startup(1000, 0);
  const smallPlain = await startup(1000, 0, ['--compress', 'off']);
  const prism = { static: await startPrismMock(false), dynamic: await startPrismMock(true) };
  for (const scenario of await scenarios(small.url, 1000))
    await compare(scenario, { cached: small, uncached: smallUncached, plain: smallPlain, prism });
  facts.rss_mb_1000 = residentMb(small.pid);
  for (const child of [small, smallUncached, smallPlain, prism.static, prism.dynamic])
    await child.stop();
  rows.push(...(await journalRows(connections)));

  proxyLines = proxyRow(await proxyOverhead(connections));
  const checkStarted = performance.now();
  await promisify(execFile)(process.execPath, ['bin/hrmock.js', 'check'], { cwd: root });
  facts.check_ms = performance.now() - checkStarted;
}
if (only !== 'small') {
  // 100,000 profiles: the answer cache is off and the queries vary, so the store itself is measured.
  const large = await startup(100_000, 0);
  for (const scenario of await scenarios(large.url, 100_000))
    await compare(scenario, { uncached: large });
  facts.rss_mb_100000 = residentMb(large.pid);
  await worstCrafted(large.url);
  facts.rss_mb_100000_after_crafted = residentMb(large.pid);
  await large.stop();
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const summary = [
  `machine: ${machine}; ${connections} connections, ${seconds} s per measurement (a server and its limit: ${LIMIT_ROUNDS} rounds of ${ROUND_SECONDS} s each, in turn; × limit is the median of the rounds' ratios), wrk -t1, every server sent the same requests and headers (Accept-Encoding: ${HEADERS['accept-encoding']}, as browsers send)`,
  '',
  table(),
  '',
  proxyLines,
  '',
  `start-up to first answer: ${Math.round(facts.startup_ms_1000 ?? 0)} ms with 1,000 profiles (median of ${STARTUP_RUNS}, ${Math.round(facts.startup_ms_1000_min ?? 0)} to ${Math.round(facts.startup_ms_1000_max ?? 0)}), ${Math.round(facts.startup_ms_100000 ?? 0)} ms with 100,000`,
  `resident memory after the load: ${Math.round(facts.rss_mb_1000 ?? 0)} MB with 1,000 profiles, ${Math.round(facts.rss_mb_100000 ?? 0)} MB with 100,000 (${Math.round(facts.rss_mb_100000_after_crafted ?? 0)} MB once the crafted requests and the SDK filters have run)`,
  `hrmock check against the local mock (whole command): ${((facts.check_ms ?? 0) / 1000).toFixed(1)} s`,
  crafted === undefined
    ? ''
    : `worst crafted request: ${Math.round(crafted.ms)} ms, ${crafted.status}, ${JSON.stringify({ ...crafted.body, source_keys: '…' })} (the first SDK-filter search on a fresh server: ${Math.round(facts.first_sdk_filter_ms ?? 0)} ms)`,
].join('\n');
process.stdout.write(`${summary}\n`);
mkdirSync(join(root, 'test/bench/results'), { recursive: true });
writeFileSync(
  join(root, 'test/bench/results/latest.json'),
  `${JSON.stringify({ machine, connections, seconds, rows, facts, crafted }, null, 2)}\n`,
);
