// The proxy's overhead on the bench's distinct searching row: the same requests sent straight to
// `hrmock serve --answer-cache-mb 0` (1,000 profiles) and through four proxies in front of it:
// hrmock proxy, a bare undici-dispatch proxy and a bare node:http pipe proxy (bare-proxy.ts), and
// Prism's proxy, in alternating rounds of one run. Alone: `tsx test/bench/proxy.ts`
// (BENCH_CONNECTIONS, default 16).
import { pathToFileURL } from 'node:url';
import { drive, ensureWrk, type Load, type LoadRequest } from './load.ts';
import { type Child, quiet, spawnServer, startHrmock, startPrismProxy } from './processes.ts';
import { scenarios } from './scenarios.ts';

const ROUNDS = 5;
const ROUND_SECONDS = 2;
/** The row of run.ts this one measures: its distinct requests. */
const SEARCHING = /^POST searching 1,000/;

/** What is measured, in the order of each round. */
const SERVERS = ['direct', 'hrmock', 'undici', 'node', 'prism'] as const;
type Server = (typeof SERVERS)[number];
const NAMES: Record<Server, string> = {
  direct: 'straight to the mock',
  hrmock: 'through hrmock proxy (judging each exchange)',
  undici: 'through a bare undici-dispatch proxy (test/bench/bare-proxy.ts undici)',
  node: 'through a bare node:http pipe proxy (test/bench/bare-proxy.ts node)',
  prism: 'through prism proxy contract/openapi.yaml (validating each exchange)',
};

export type ProxyOverhead = {
  scenario: string;
  requests: number;
  /** The median round of each, by req/s. */
  loads: Record<Server, Load>;
  /** The median of the rounds' ratios of req/s, over straight. */
  vsDirect: Record<Server, number>;
  /** The median of the rounds' ratios of req/s, hrmock proxy over the bare undici proxy. */
  vsUndici: number;
  /** The median p50 minus the median p50 straight, in ms. */
  addedP50: Record<Server, number>;
  /**
   * The same with one connection, one request at a time: what each proxy adds to an exchange
   * (with 16 connections the servers are saturated, and p50 follows throughput).
   */
  addedP50AtOne: Record<Server, number>;
};

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function checked(load: Load, where: string): Load {
  if (load.errors > 0 || load.non2xx > 0)
    throw new Error(`${where}: ${load.errors} errors, ${load.non2xx} non-2xx answers`);
  return load;
}

const each = <T>(make: (server: Server) => T) =>
  Object.fromEntries(SERVERS.map((s) => [s, make(s)])) as Record<Server, T>;

/** All measured in turn, `ROUNDS` times, so that the machine's drift falls on all alike. */
export async function proxyOverhead(connections = 16): Promise<ProxyOverhead> {
  ensureWrk();
  const mock: Child = await startHrmock(1000, { answerCacheMb: 0 });
  const started: Child[] = [mock];
  try {
    const atUrl = /at (http:\/\/127\.0\.0\.1:\d+)/;
    const bare = (kind: string) =>
      spawnServer(['--import', 'tsx', 'test/bench/bare-proxy.ts', kind, mock.url], atUrl);
    const children: Record<Server, Child> = {
      direct: mock,
      hrmock: await spawnServer(
        ['bin/hrmock.js', 'proxy', '--upstream', mock.url, '--port', '0'],
        atUrl,
      ),
      undici: await bare('undici'),
      node: await bare('node'),
      prism: await startPrismProxy(mock.url),
    };
    started.push(children.hrmock, children.undici, children.node, children.prism);
    const scenario = (await scenarios(mock.url, 1000)).find((s) => SEARCHING.test(s.name));
    if (scenario === undefined) throw new Error('the bench has no distinct searching row');
    const requests: LoadRequest[] = scenario.distinct;
    const warm = { connections, seconds: 1 };
    // Warm: the judge judges each distinct exchange once (~9 ms of CPU each), then knows repeats.
    for (let k = 0; k < 2; k++) {
      drive(children.hrmock.url, requests, warm);
      await quiet(children.hrmock.pid);
    }
    for (const server of SERVERS)
      if (server !== 'hrmock') drive(children[server].url, requests, warm);
    const rounds = each<Load[]>(() => []);
    const round = { connections, seconds: ROUND_SECONDS };
    for (let k = 0; k < ROUNDS; k++)
      for (const server of SERVERS)
        rounds[server].push(checked(drive(children[server].url, requests, round), NAMES[server]));
    const atOne = each<number[]>(() => []);
    const single = { connections: 1, seconds: ROUND_SECONDS };
    for (let k = 0; k < ROUNDS; k++)
      for (const server of SERVERS) {
        const load = drive(children[server].url, requests, single);
        atOne[server].push(checked(load, `${NAMES[server]}, one connection`).p50);
      }
    const perSecond = (server: Server, k: number) => (rounds[server][k] as Load).reqPerSec;
    const ratios = (of: Server, over: Server) =>
      median(rounds[of].map((_, k) => perSecond(of, k) / perSecond(over, k)));
    const p50 = (server: Server) => median(rounds[server].map((l) => l.p50));
    return {
      scenario: scenario.name,
      requests: requests.length,
      loads: each((server) => {
        const middle = median(rounds[server].map((l) => l.reqPerSec));
        return rounds[server].find((l) => l.reqPerSec === middle) as Load;
      }),
      vsDirect: each((server) => ratios(server, 'direct')),
      vsUndici: ratios('hrmock', 'undici'),
      addedP50: each((server) => p50(server) - p50('direct')),
      addedP50AtOne: each((server) => median(atOne[server]) - median(atOne.direct)),
    };
  } finally {
    for (const child of started.reverse()) await child.stop();
  }
}

/** The rows as run.ts's table shows rows, and one line with the ratios. */
export function proxyRow(o: ProxyOverhead): string {
  const lines = [
    '| scenario | server | req/s | p50 ms | p99 ms | × direct | added p50 ms (one connection) |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const server of SERVERS) {
    const l = o.loads[server];
    const name =
      server === 'direct'
        ? `hrmock --answer-cache-mb 0, ${o.requests} distinct, ${NAMES.direct}`
        : NAMES[server];
    const added =
      server === 'direct'
        ? ''
        : `${o.addedP50[server].toFixed(2)} (${o.addedP50AtOne[server].toFixed(2)})`;
    lines.push(
      `| ${o.scenario} | ${name} | ${Math.round(l.reqPerSec)} | ${l.p50} | ${l.p99} | ${o.vsDirect[server].toFixed(2)} | ${added} |`,
    );
  }
  lines.push(
    '',
    `hrmock proxy: ${o.vsUndici.toFixed(2)} × the bare undici proxy, ${o.vsDirect.hrmock.toFixed(2)} × direct; bare undici ${o.vsDirect.undici.toFixed(2)} ×, bare node:http ${o.vsDirect.node.toFixed(2)} ×, Prism ${o.vsDirect.prism.toFixed(2)} × (medians of the ratios of ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s)`,
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const overhead = await proxyOverhead(Number(process.env.BENCH_CONNECTIONS ?? 16));
  process.stdout.write(`${proxyRow(overhead)}\n`);
}
