// npm run bench:startup: `hrmock serve` from spawn to its first answer, run from the TypeScript
// sources through tsx (what a checkout runs) and from the build in dist/ (what
// `npm install hrmock` runs). Median of RUNS each (default 7), PROFILES profiles (default 1000).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { firstAnswerMs } from './processes.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const runs = Number(process.env.RUNS ?? 7);
const profiles = Number(process.env.PROFILES ?? 1000);
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

const ways: Record<string, string[]> = {
  'TypeScript sources through tsx': [tsx, 'src/cli.ts'],
  'built JavaScript (dist/)': ['dist/src/cli.js'],
};

if (!existsSync(`${root}dist/src/cli.js`)) throw new Error('run `npm run build` first');
for (const [way, entry] of Object.entries(ways)) {
  const { median, min, max } = await firstAnswerMs(entry, profiles, runs);
  console.log(
    `${way}: median ${median.toFixed(0)} ms to the first answer (${runs} runs, ${profiles} profiles; min ${min.toFixed(0)}, max ${max.toFixed(0)})`,
  );
}
