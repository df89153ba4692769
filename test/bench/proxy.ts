// The proxy's overhead on the bench's distinct searching row: the same requests sent straight to
// `hrmock serve --answer-cache-mb 0` (1,000 profiles) and through `hrmock proxy` in front of it,
// in alternating rounds of one run. Alone: `tsx test/bench/proxy.ts` (BENCH_CONNECTIONS, default 16).
import { pathToFileURL } from 'node:url';
import { drive, ensureWrk, type Load, type LoadRequest } from './load.ts';
import { type Child, quiet, spawnServer, startHrmock } from './processes.ts';
import { scenarios } from './scenarios.ts';

const ROUNDS = 5;
const ROUND_SECONDS = 2;
/** The row of run.ts this one measures: its distinct requests. */
const SEARCHING = /^POST searching 1,000/;

export type ProxyOverhead = {
  scenario: string;
  requests: number;
  direct: Load;
  proxied: Load;
  /** The same requests through a bare node:http pipe proxy: what any Node proxy costs here. */
  bare: Load;
  /** The median of the rounds' ratios of req/s, through the proxy over straight. */
  throughput: number;
  /** The median of the rounds' ratios of req/s, through the bare proxy over straight. */
  bareThroughput: number;
  /** The median p50 through the proxy minus the median p50 straight, in ms. */
  addedP50: number;
  /**
   * The same with one connection, one request at a time: what the proxy adds to each exchange
   * (with 16 connections the servers are saturated, and p50 follows throughput).
   */
  addedP50AtOne: number;
  bareAddedP50AtOne: number;
};

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function checked(load: Load, where: string): Load {
  if (load.errors > 0 || load.non2xx > 0)
    throw new Error(`${where}: ${load.errors} errors, ${load.non2xx} non-2xx answers`);
  return load;
}

/** Both measured in turn, `ROUNDS` times, so that the machine's drift falls on both alike. */
export async function proxyOverhead(connections = 16): Promise<ProxyOverhead> {
  ensureWrk();
  const mock: Child = await startHrmock(1000, { answerCacheMb: 0 });
  const proxy = await spawnServer(
    ['bin/hrmock.js', 'proxy', '--upstream', mock.url, '--port', '0'],
    /at (http:\/\/127\.0\.0\.1:\d+)/,
  );
  const bareProxy = await spawnServer(
    ['--import', 'tsx', 'test/bench/bare-proxy.ts', mock.url],
    /at (http:\/\/127\.0\.0\.1:\d+)/,
  );
  try {
    const scenario = (await scenarios(mock.url, 1000)).find((s) => SEARCHING.test(s.name));
    if (scenario === undefined) throw new Error('the bench has no distinct searching row');
    const requests: LoadRequest[] = scenario.distinct;
    const round = { connections, seconds: ROUND_SECONDS };
    drive(mock.url, requests, { connections, seconds: 1 });
    // Warm: the judge judges each distinct exchange once (~9 ms of CPU each), then knows repeats.
    for (let k = 0; k < 2; k++) {
      drive(proxy.url, requests, { connections, seconds: 1 });
      await quiet(proxy.pid);
    }
    drive(bareProxy.url, requests, { connections, seconds: 1 });
    const direct: Load[] = [];
    const proxied: Load[] = [];
    const bare: Load[] = [];
    for (let k = 0; k < ROUNDS; k++) {
      direct.push(checked(drive(mock.url, requests, round), 'straight to the mock'));
      proxied.push(checked(drive(proxy.url, requests, round), 'through the proxy'));
      bare.push(checked(drive(bareProxy.url, requests, round), 'through the bare proxy'));
    }
    const one = { direct: [] as number[], proxied: [] as number[], bare: [] as number[] };
    const single = { connections: 1, seconds: ROUND_SECONDS };
    for (let k = 0; k < ROUNDS; k++) {
      one.direct.push(checked(drive(mock.url, requests, single), 'straight, one connection').p50);
      one.proxied.push(checked(drive(proxy.url, requests, single), 'proxied, one connection').p50);
      one.bare.push(checked(drive(bareProxy.url, requests, single), 'bare, one connection').p50);
    }
    const middle = (loads: Load[]) =>
      loads.find((l) => l.reqPerSec === median(loads.map((x) => x.reqPerSec))) as Load;
    return {
      addedP50AtOne: median(one.proxied) - median(one.direct),
      bareAddedP50AtOne: median(one.bare) - median(one.direct),
      scenario: scenario.name,
      requests: requests.length,
      direct: middle(direct),
      proxied: middle(proxied),
      bare: middle(bare),
      throughput: median(proxied.map((p, k) => p.reqPerSec / (direct[k] as Load).reqPerSec)),
      bareThroughput: median(bare.map((b, k) => b.reqPerSec / (direct[k] as Load).reqPerSec)),
      addedP50: median(proxied.map((p) => p.p50)) - median(direct.map((d) => d.p50)),
    };
  } finally {
    await bareProxy.stop();
    await proxy.stop();
    await mock.stop();
  }
}

/** The row as run.ts's table shows rows, and one line with the two figures. */
export function proxyRow(o: ProxyOverhead): string {
  const row = (server: string, l: Load) =>
    `| ${o.scenario} | ${server} | ${Math.round(l.reqPerSec)} | ${l.p50} | ${l.p99} |`;
  return [
    '| scenario | server | req/s | p50 ms | p99 ms |',
    '|---|---|---:|---:|---:|',
    row(`hrmock --answer-cache-mb 0, ${o.requests} distinct, straight`, o.direct),
    row('the same through hrmock proxy (judging each exchange)', o.proxied),
    row('the same through a bare node:http pipe proxy (test/bench/bare-proxy.ts)', o.bare),
    '',
    `proxy overhead: ${o.throughput.toFixed(2)} × direct throughput, ${o.addedP50.toFixed(2)} ms added p50 (${o.addedP50AtOne.toFixed(2)} ms with one connection); a bare node:http proxy: ${o.bareThroughput.toFixed(2)} ×, ${o.bareAddedP50AtOne.toFixed(2)} ms with one connection (medians of ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s)`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const overhead = await proxyOverhead(Number(process.env.BENCH_CONNECTIONS ?? 16));
  process.stdout.write(`${proxyRow(overhead)}\n`);
}
