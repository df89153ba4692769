// Two checkouts' servers on the bench's distinct rows, side by side, alternating rounds in one
// run (which goes first alternates too): AB_BEFORE=../before AB_AFTER=. npx tsx
// test/bench/ab-trees.ts. AB_EXTRA: the servers' options (default --answer-cache-mb 0);
// AB_ROUNDS (default 7). Each tree needs its own node_modules.
import { spawn } from 'node:child_process';
import { drive } from './load.ts';
import { scenarios } from './scenarios.ts';

const TREES = { before: process.env.AB_BEFORE ?? '../before', after: process.env.AB_AFTER ?? '.' };
const EXTRA = (process.env.AB_EXTRA ?? '--answer-cache-mb 0').split(' ');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 7);
function start(dir: string): Promise<{ url: string; kill: () => void }> {
  const child = spawn(
    process.execPath,
    ['bin/hrmock.js', 'serve', '--port', '0', '--quiet', '--profiles', '1000', ...EXTRA],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((res) => {
    const on = (d: Buffer) => {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) res({ url: m[1] as string, kill: () => child.kill() });
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
  });
}
const servers = { before: await start(TREES.before), after: await start(TREES.after) };
const rows = await scenarios(servers.after.url, 1000);
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;
for (const row of rows) {
  for (const s of Object.values(servers))
    drive(s.url, row.distinct, { connections: 16, seconds: 1 });
  const ratios: number[] = [];
  const b: number[] = [];
  const a: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const first = k % 2 === 0 ? 'before' : 'after';
    const r1 = drive(servers[first].url, row.distinct, { connections: 16, seconds: 2 }).reqPerSec;
    const r2 = drive(servers[first === 'before' ? 'after' : 'before'].url, row.distinct, {
      connections: 16,
      seconds: 2,
    }).reqPerSec;
    const [rb, ra] = first === 'before' ? [r1, r2] : [r2, r1];
    b.push(rb);
    a.push(ra);
    ratios.push(ra / rb);
  }
  console.log(
    `${row.name} [${EXTRA.join(' ')}]: before ${med(b).toFixed(0)} after ${med(a).toFixed(0)} req/s; after/before median ${med(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
  );
}
for (const s of Object.values(servers)) s.kill();
