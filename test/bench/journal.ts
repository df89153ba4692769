// The journal's cost: the bench's distinct (uncached) rows, 1,000 profiles, no scenario set,
// on two servers alike but for the journal: on at its default size (1,000) and --journal-size 0.
// Run alone with `tsx test/bench/journal.ts`; npm run bench runs it too (run.ts).
// Environment: BENCH_CONNECTIONS (default 16); JOURNAL_BENCH_ROUNDS (default 15);
// JOURNAL_BENCH_CONTROL=1 turns the journal off on both servers (an A/A run: the noise floor of
// the ratios on this machine).
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Journal } from '../../src/http/admin/journal.ts';
import { drive, ensureWrk, HEADERS, type Load, type LoadRequest } from './load.ts';
import { spawnServer, startHrmock } from './processes.ts';
import { scenarios } from './scenarios.ts';

/**
 * Rounds of the two servers, taken in turn: a shared machine drifts more than they differ
 * (JOURNAL_BENCH_ROUNDS: more rounds, a narrower median).
 */
const ROUNDS = Number(process.env.JOURNAL_BENCH_ROUNDS ?? 15);
const ROUND_SECONDS = 1;

export type JournalRow = {
  scenario: string;
  server: string;
  load: Load;
  /** Journal on / journal off, the median of the rounds' ratios (on the journal-on row). */
  vsOff?: number;
  /** The same, of two mocks in one process (test/bench/journal-pair.ts). */
  vsOffOneProcess?: number;
  /** What recording one of the row's requests costs in process, in µs (on the journal-on row). */
  recordUs?: number;
  /** The server's CPU time per request over all rounds, in µs. */
  cpuUs: number;
};

function checked(load: Load, what: string): Load {
  if (load.errors > 0 || load.non2xx > 0)
    throw new Error(`${what}: ${load.errors} errors, ${load.non2xx} non-2xx answers`);
  return load;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

/** CPU time a process has used (user + system), in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

type Server = { url: string; pid: number };
type Rounds = {
  ratio: number;
  cpuRatio: number;
  on: Load;
  cpuUs: { on: number; off: number };
  off: Load;
};

/**
 * The row's requests sent to `on` and `off` in alternating rounds: the median of the rounds'
 * req/s ratios, and the CPU time per request over all rounds (from /proc, which other processes
 * on a shared machine disturb far less than they disturb throughput). Two mocks in one process
 * are driven one at a time, so the process's CPU time in a round is that round's server's.
 */
function alternate(on: Server, off: Server, requests: LoadRequest[], connections: number): Rounds {
  for (const server of [on, off]) drive(server.url, requests, { connections, seconds: 1 });
  const loads: { on: Load[]; off: Load[] } = { on: [], off: [] };
  const cpu = { on: 0, off: 0 };
  const round = { connections, seconds: ROUND_SECONDS };
  for (let k = 0; k < ROUNDS; k++) {
    // Which goes first swaps each round, so neither always meets the machine warmer.
    const order = k % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const side of order) {
      const server = side === 'on' ? on : off;
      const before = cpuMs(server.pid);
      loads[side].push(checked(drive(server.url, requests, round), side));
      cpu[side] += cpuMs(server.pid) - before;
    }
  }
  const served = (list: Load[]) => list.reduce((sum, l) => sum + l.requests, 0);
  const cpuUs = {
    on: (cpu.on * 1000) / served(loads.on),
    off: (cpu.off * 1000) / served(loads.off),
  };
  const middle = (list: Load[]) =>
    list.find((l) => l.reqPerSec === median(list.map((x) => x.reqPerSec))) as Load;
  return {
    ratio: median(loads.on.map((load, k) => load.reqPerSec / (loads.off[k] as Load).reqPerSec)),
    cpuRatio: cpuUs.off / cpuUs.on,
    on: middle(loads.on),
    off: middle(loads.off),
    cpuUs,
  };
}

/** Two mocks in one process (test/bench/journal-pair.ts), journal on and off. */
async function startPair(
  control: boolean,
): Promise<{ on: Server; off: Server; stop: () => Promise<void> }> {
  const child = await spawnServer(
    ['--import', 'tsx', 'test/bench/journal-pair.ts'],
    /pair (http:\S+ http:\S+)/,
    control ? { JOURNAL_PAIR_CONTROL: '1' } : {},
  );
  const [on, off] = child.url.split(' ') as [string, string];
  return { on: { url: on, pid: child.pid }, off: { url: off, pid: child.pid }, stop: child.stop };
}

/**
 * Each distinct row with the journal on and off, measured twice: two `hrmock serve` processes
 * (as users run it), and two mocks in one process, where nothing but the journal differs (two
 * processes alike differ by up to 10% on this machine: JOURNAL_BENCH_CONTROL=1 shows how far).
 */
export async function journalRows(connections = 16): Promise<JournalRow[]> {
  ensureWrk();
  // JOURNAL_BENCH_CONTROL=1: both servers without the journal, to see how far two alike differ.
  const control = process.env.JOURNAL_BENCH_CONTROL === '1';
  const on = await startHrmock(1000, {
    answerCacheMb: 0,
    extra: control ? ['--journal-size', '0'] : [],
  });
  const off = await startHrmock(1000, { answerCacheMb: 0, extra: ['--journal-size', '0'] });
  const pair = await startPair(control);
  const rows: JournalRow[] = [];
  try {
    for (const scenario of await scenarios(on.url, 1000)) {
      const requests = scenario.distinct;
      const apart = alternate(on, off, requests, connections);
      const together = alternate(pair.on, pair.off, requests, connections);
      const name = `hrmock --answer-cache-mb 0, ${requests.length} distinct`;
      const recordUs = recordMicroseconds(requests);
      rows.push(
        {
          scenario: scenario.name,
          server: `${name}, journal on (1,000): ${apart.ratio.toFixed(2)} of journal off in req/s, ${apart.cpuRatio.toFixed(2)} in CPU per request; in one process ${together.ratio.toFixed(2)} and ${together.cpuRatio.toFixed(2)}; a record costs ${recordUs.toFixed(2)} µs in process`,
          load: apart.on,
          vsOff: apart.ratio,
          vsOffOneProcess: together.ratio,
          recordUs,
          cpuUs: apart.cpuUs.on,
        },
        {
          scenario: scenario.name,
          server: `${name}, --journal-size 0`,
          load: apart.off,
          cpuUs: apart.cpuUs.off,
        },
      );
    }
  } finally {
    await on.stop();
    await off.stop();
    await pair.stop();
  }
  return rows;
}

/**
 * What the server adds per request with the journal on, measured in this process where nothing
 * else competes: each of the row's requests made as the server makes it (a fresh URL, wrk's
 * headers, ~32 KB of other garbage for the answer), with `Journal.record` and without; the
 * median of five runs of 60,000 each, the difference. The garbage matters: an entry kept while
 * the server allocates outlives the young generation, which costs more than recording it.
 */
function recordMicroseconds(requests: LoadRequest[]): number {
  const on: number[] = [];
  const off: number[] = [];
  for (let run = 0; run < 5; run++) {
    off.push(perRequest(requests, new Journal(0)));
    on.push(perRequest(requests, new Journal(1000)));
  }
  return median(on) - median(off);
}

function perRequest(requests: LoadRequest[], journal: Journal): number {
  const calls = 60_000;
  let made = 0;
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const request = requests[i % requests.length] as LoadRequest;
    const url = Buffer.from(request.path).toString();
    const body = request.body === undefined ? undefined : Buffer.from(request.body).toString();
    const headers = { host: '127.0.0.1:4010', ...HEADERS, 'content-length': '300' };
    const answer: string[] = [];
    for (let k = 0; k < 64; k++) answer.push(`${'x'.repeat(500)}${k}`);
    made += answer.length;
    if (journal.size > 0) journal.record(request.method, url, body, headers, 200, 1);
  }
  if (made !== calls * 64) throw new Error('the garbage was not made');
  return ((performance.now() - started) * 1000) / calls;
}

export function journalTable(rows: JournalRow[]): string {
  const lines = [
    '| scenario | server | req/s | p50 ms | p99 ms | CPU µs per request | × journal off (req/s) | × journal off, one process |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.scenario} | ${r.server} | ${Math.round(r.load.reqPerSec)} | ${r.load.p50} | ${r.load.p99} | ${Math.round(r.cpuUs)} | ${r.vsOff?.toFixed(2) ?? ''} | ${r.vsOffOneProcess?.toFixed(2) ?? ''} |`,
    );
  return lines.join('\n');
}

if (
  process.argv[1] !== undefined &&
  realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const rows = await journalRows(Number(process.env.BENCH_CONNECTIONS ?? 16));
  process.stdout.write(`${journalTable(rows)}\n`);
}
