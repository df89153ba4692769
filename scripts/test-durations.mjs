// npm run test:durations: how long each test file took in a whole run, in milliseconds, written
// to test/durations.json, which orders a fresh clone's run longest first (test/support/sequencer.ts).
// Run it on a quiet machine after files were added or grew longer; any run's figures will do, as
// only the order they give is used.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'hrmock-durations-'));
const report = join(dir, 'report.json');
try {
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  execFileSync(process.execPath, [vitest, 'run', '--reporter=json', `--outputFile=${report}`], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
  const durations = Object.fromEntries(
    testResults
      .map((file) => [relative(root, file.name), Math.round(file.endTime - file.startTime)])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  writeFileSync(join(root, 'test/durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
  process.stdout.write(`test/durations.json: ${testResults.length} files\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
