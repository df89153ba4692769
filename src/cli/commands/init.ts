import { constants, existsSync } from 'node:fs';
import { access, copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { apiBase } from '../../http/api-base.ts';
import { DEFAULT_SEED, FIXTURE_FLAGS } from '../fixture-options.ts';
import { positiveInt, UsageError } from '../usage-error.ts';

export const INIT_HELP = `hrmock init: write the mock's Service Worker into your app's public folder

  hrmock init DIR [--seed N] [--profiles N] [--jobs N] [--base-url URL]

  DIR               the folder your app serves at its site root (public/, static/), which
                    must exist: gets hrmock-sw.js (the worker) and hrmock-browser.js (the
                    mock it imports); both are replaced when already there
  --seed N          fixture seed (default 42): the data hrmock serve --seed N serves
  --profiles N      how many profiles (default 1000)
  --jobs N          how many jobs (default 300)
  --base-url URL    the API's base URL as the app calls it: a path such as /v1 (on the
                    page's own origin), or https://api.example.com/v1 (default: the root
                    of the page's origin)

Register it as a module worker before the app's first API call (docs/browser.md):
  navigator.serviceWorker.register('/hrmock-sw.js', { type: 'module', scope: '/' })`;

/** The worker's name, which the documented registration names. */
export const WORKER_FILE = 'hrmock-sw.js';
/** The one browser bundle the package ships, copied beside the worker under this name. */
export const BUNDLE_FILE = 'hrmock-browser.js';

export async function initCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...FIXTURE_FLAGS, 'base-url': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1)
    throw new UsageError(
      `init takes one folder, your app's public folder (hrmock init public/), got ${positionals.length === 0 ? 'none' : positionals.map((p) => JSON.stringify(p)).join(' ')} (hrmock init --help)`,
    );
  const dir = positionals[0] as string;
  const options: Record<string, unknown> = {
    seed: positiveInt('seed', values.seed, DEFAULT_SEED, 0),
    profiles: positiveInt('profiles', values.profiles, 1000),
    jobs: positiveInt('jobs', values.jobs, 300),
  };
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined) options.baseUrl = baseUrlOf(baseUrl);
  await writableFolder(dir);
  const { bundle, version } = await shippedBundle();

  const worker = join(dir, WORKER_FILE);
  const copy = join(dir, BUNDLE_FILE);
  await cannotWrite(dir, () => copyFile(bundle, copy));
  await cannotWrite(dir, () => writeFile(worker, workerScript(options, version)));
  const kib = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KiB`;
  const where =
    baseUrl === undefined ? "the root of the page's origin" : `under ${options.baseUrl}`;
  process.stdout.write(
    [
      `wrote ${worker} (the Service Worker: seed ${options.seed}, ${options.profiles} profiles, ${options.jobs} jobs, answering ${where}, ${kib((await stat(worker)).size)})`,
      `wrote ${copy} (the mock it imports, hrmock ${version}, ${kib((await stat(copy)).size)})`,
      `Register it as a module worker before the app's first API call (docs/browser.md):`,
      `  await navigator.serviceWorker.register('/${WORKER_FILE}', { type: 'module', scope: '/' });`,
      '',
    ].join('\n'),
  );
  return 0;
}

/** The worker: the mock over those options, taking over open pages as soon as it is active. */
function workerScript(options: Record<string, unknown>, version: string): string {
  return `// hrmock's Service Worker, written by \`hrmock init\` (hrmock ${version}). A module worker:
//   navigator.serviceWorker.register('/${WORKER_FILE}', { type: 'module', scope: '/' })
// The mock (${BUNDLE_FILE}, beside it) answers the API's requests; the rest goes to the network.
import { installServiceWorkerMock } from './${BUNDLE_FILE}';

installServiceWorkerMock(self, ${JSON.stringify(options)});

// Take over at once, open pages included: a mock that waits for the next visit is no use.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
`;
}

function baseUrlOf(value: string): string {
  try {
    const { origin, path } = apiBase(value);
    return `${origin ?? ''}${path}` || '/';
  } catch {
    throw new UsageError(
      `--base-url takes the API's base URL as the app calls it, a path or an http(s) URL, e.g. /v1 or https://api.example.com/v1, got ${JSON.stringify(value)}`,
    );
  }
}

/** Refuses, before writing anything, a folder that is missing, not a folder, or not writable. */
async function writableFolder(dir: string): Promise<void> {
  const found = await stat(dir).catch(() => undefined);
  if (found === undefined)
    throw new UsageError(
      `${dir} does not exist: name your app's public folder, the one served at its site root (hrmock init public/), or create it first`,
    );
  if (!found.isDirectory())
    throw new UsageError(
      `${dir} is not a folder: name your app's public folder (hrmock init public/)`,
    );
  await cannotWrite(dir, () => access(dir, constants.W_OK));
}

async function cannotWrite(dir: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      `cannot write into ${dir} (${code}): give a folder you may write to, or change its permissions`,
    );
  }
}

/**
 * `hrmock/browser` as the package ships it: dist/browser/hrmock-browser.js under the package's
 * root (the nearest package.json above this file, in a checkout and an installed package alike).
 */
async function shippedBundle(): Promise<{ bundle: string; version: string }> {
  let root = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const bundle = join(root, 'dist', 'browser', BUNDLE_FILE);
  if (!existsSync(bundle))
    throw new UsageError(
      `the browser bundle ${bundle} is not built: run npm run build:browser in this checkout`,
    );
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  return { bundle, version: String(version) };
}
