// npm run typecheck: the repository (the msw and vitest examples included, whose settings it
// shares) and the Service Worker example (its own lib, WebWorker, which cannot sit beside DOM),
// through tsc, side by side; each project's findings printed whole, in the order listed.
// Exit status 1 when any project has an error. Plain JavaScript: it runs before anything is built.
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const PROJECTS = ['tsconfig.json', 'examples/browser'];

const results = new Array(PROJECTS.length);
let next = 0;
async function worker() {
  while (next < PROJECTS.length) {
    const i = next++;
    results[i] = await new Promise((resolve) =>
      execFile(
        process.execPath,
        [tsc, '--noEmit', '-p', PROJECTS[i]],
        { cwd: root, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ failed: error !== null, text: stdout + stderr }),
      ),
    );
  }
}
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
let failed = false;
PROJECTS.forEach((project, i) => {
  const { failed: projectFailed, text } = results[i];
  if (text !== '') process.stdout.write(`${project}:\n${text}`);
  failed ||= projectFailed;
});
process.exitCode = failed ? 1 : 0;
