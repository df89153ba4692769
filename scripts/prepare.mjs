// npm's `prepare` (npm install in a checkout, npm ci, an install from git) and `prepack`
// (`--force`): builds dist/ unless it was built from exactly these sources. The build's inputs are
// hashed and the hash kept in dist/build-inputs.sha256 (not packed), so a repeated install skips
// the build in well under a second. Plain JavaScript: it runs before anything is compiled.
// Everything goes to stderr: `npm pack --json` prints its JSON on stdout.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const stamp = join(root, 'dist/build-inputs.sha256');
/** What dist/ is made from; a change to any of them is a new build. */
const INPUTS = [
  'src',
  'mocks',
  'contract',
  'scripts',
  'examples/browser/sw.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

const force = process.argv.includes('--force');
const hash = inputsHash();
const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
if (!force && built === hash && existsSync(join(root, 'dist/src/cli.js'))) process.exit(0);

let tsx;
try {
  tsx = createRequire(import.meta.url).resolve('tsx');
} catch {
  // `npm ci --omit=dev` in a checkout: nothing can build; bin/hrmock.js says what is missing.
  process.stderr.write('hrmock: dist/ not built (tsx, a devDependency, is not installed)\n');
  process.exit(0);
}
process.stderr.write(
  `hrmock: building dist/ (${built === '' ? 'not built yet' : 'sources changed'})\n`,
);
execFileSync(
  process.execPath,
  ['--import', pathToFileURL(tsx).href, join(root, 'scripts/build.ts')],
  {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  },
);
writeFileSync(stamp, `${hash}\n`);

function inputsHash() {
  const sha = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of walk(join(root, input))) {
      sha.update(`${relative(root, file)}\0`);
      sha.update(readFileSync(file));
    }
  }
  return sha.digest('hex');
}

function* walk(path) {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules' || name.endsWith('.test.ts')) continue;
    yield* walk(join(path, name));
  }
}
