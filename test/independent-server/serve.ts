// Serves the independent implementation with the defects named, for trying `hrmock check` on it
// by hand: `npx tsx test/independent-server/serve.ts [DEFECT …]` writes target.json and prints
// the base URL; Ctrl-C stops it. SLOW_MS sets the delay of the slow-* defects (default 2500).
import { writeFile } from 'node:fs/promises';
import { DEFECTS, type DefectName, startIndependentServer } from './index.ts';

const defects = process.argv.slice(2) as DefectName[];
const unknown = defects.filter((d) => !(d in DEFECTS));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown defect ${unknown.join(', ')}; one of: ${Object.keys(DEFECTS).join(', ')}\n`,
  );
  process.exit(2);
}
const slowMs = process.env.SLOW_MS === undefined ? undefined : Number(process.env.SLOW_MS);
const server = await startIndependentServer({
  defects,
  ...(slowMs === undefined ? {} : { slowMs }),
});
await writeFile('target.json', `${JSON.stringify(server.target, null, 2)}\n`);
process.stdout.write(
  `${server.url} (defects: ${defects.join(', ') || 'none'}); target written to target.json\n`,
);
process.on('SIGINT', () => server.close().then(() => process.exit(0)));
