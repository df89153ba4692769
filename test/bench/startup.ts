// npm run bench:startup: `hrmock serve` from spawn to its first answer, run from the TypeScript
// sources through tsx (what the package ran before it shipped JavaScript, and what a checkout
// runs) and from the build in dist/ (what `npm install hrmock` runs). Median of RUNS each.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const runs = Number(process.env.RUNS ?? 7);
const profiles = process.env.PROFILES ?? '1000';
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

const ways: Record<string, string[]> = {
  'TypeScript sources through tsx': [tsx, 'src/cli.ts'],
  'built JavaScript (dist/)': ['dist/src/cli.js'],
};

/** Milliseconds from spawning the server to the end of its first answer. */
function firstAnswer(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...args, 'serve', '--port', '0', '--quiet', '--profiles', profiles],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', async (chunk) => {
      output += chunk;
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url === undefined) return;
      child.stdout.removeAllListeners('data');
      const response = await fetch(`${url}/_mock/target`);
      await response.arrayBuffer();
      const ms = performance.now() - started;
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
    child.once('error', reject);
  });
}

if (!existsSync(`${root}dist/src/cli.js`)) throw new Error('run `npm run build` first');
for (const [way, args] of Object.entries(ways)) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await firstAnswer(args));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  console.log(
    `${way}: median ${median.toFixed(0)} ms to the first answer (${runs} runs, ${profiles} profiles; min ${times[0]?.toFixed(0)}, max ${times.at(-1)?.toFixed(0)})`,
  );
}
