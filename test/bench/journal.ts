// The journal's cost: the bench's distinct (uncached) rows, 1,000 profiles, no scenario set,
// on two servers alike but for the journal: on at its default size (1,000) and --journal-size 0.
// Run alone with `tsx test/bench/journal.ts`; npm run bench runs it too (run.ts).
// Environment: BENCH_CONNECTIONS (default 16).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { drive, ensureWrk, type Load, type LoadRequest } from './load.ts';
import { type Child, startHrmock } from './processes.ts';
import { scenarios } from './scenarios.ts';

/** Rounds of the two servers, taken in turn: a shared machine drifts more than they differ. */
const ROUNDS = 5;
const ROUND_SECONDS = 2;

export type JournalRow = {
  scenario: string;
  server: string;
  load: Load;
  /** Journal on / journal off, the median of the rounds' ratios (on the journal-on row). */
  vsOff?: number;
};

function checked(load: Load, what: string): Load {
  if (load.errors > 0 || load.non2xx > 0)
    throw new Error(`${what}: ${load.errors} errors, ${load.non2xx} non-2xx answers`);
  return load;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

/** Each distinct row on both servers, in alternating rounds; the ratio is on the journal-on row. */
export async function journalRows(connections = 16): Promise<JournalRow[]> {
  ensureWrk();
  const on = await startHrmock(1000, { answerCacheMb: 0 });
  const off = await startHrmock(1000, { answerCacheMb: 0, extra: ['--journal-size', '0'] });
  const rows: JournalRow[] = [];
  try {
    for (const scenario of await scenarios(on.url, 1000)) {
      const requests = scenario.distinct;
      for (const child of [on, off]) warm(child, requests, connections);
      const loads: { on: Load[]; off: Load[] } = { on: [], off: [] };
      const round = { connections, seconds: ROUND_SECONDS };
      for (let k = 0; k < ROUNDS; k++) {
        // Which goes first swaps each round, so neither always meets the machine warmer.
        const order = k % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
        for (const side of order)
          loads[side].push(checked(drive(side === 'on' ? on.url : off.url, requests, round), side));
      }
      const ratios = loads.on.map((load, k) => load.reqPerSec / (loads.off[k] as Load).reqPerSec);
      const middle = (list: Load[]) =>
        list.find((l) => l.reqPerSec === median(list.map((x) => x.reqPerSec))) as Load;
      const name = `hrmock --answer-cache-mb 0, ${requests.length} distinct`;
      const vsOff = median(ratios);
      rows.push(
        {
          scenario: scenario.name,
          server: `${name}, journal on (1,000): ${vsOff.toFixed(2)} of journal off`,
          load: middle(loads.on),
          vsOff,
        },
        { scenario: scenario.name, server: `${name}, --journal-size 0`, load: middle(loads.off) },
      );
    }
  } finally {
    await on.stop();
    await off.stop();
  }
  return rows;
}

/** A second of load first (JIT, connections, the first sight of each object). */
function warm(child: Child, requests: LoadRequest[], connections: number) {
  drive(child.url, requests, { connections, seconds: 1 });
}

export function journalTable(rows: JournalRow[]): string {
  const lines = [
    '| scenario | server | req/s | p50 ms | p99 ms | × journal off |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.scenario} | ${r.server} | ${Math.round(r.load.reqPerSec)} | ${r.load.p50} | ${r.load.p99} | ${r.vsOff?.toFixed(2) ?? ''} |`,
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
