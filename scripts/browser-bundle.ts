import { mkdir, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { browserShims } from './browser-shims.ts';

const root = new URL('..', import.meta.url);
export const BROWSER_DIST = fileURLToPath(new URL('dist/browser/', root));

const BUNDLES = [
  // The library, for bundlers and <script type="module">.
  { entry: 'src/browser/index.ts', out: 'hrmock-browser.js', format: 'esm' },
  // A ready Service Worker: classic, not a module, so every browser with workers can run it.
  { entry: 'examples/browser/sw.ts', out: 'hrmock-sw.js', format: 'iife' },
] as const;

export type BuiltFile = { path: string; bytes: number };

/**
 * Bundles `hrmock/browser` and the example Service Worker into dist/browser/. The package ships
 * the library only (`{ serviceWorker: false }`): the worker is the same code again, for examples/.
 */
export async function buildBrowser({ serviceWorker = true } = {}): Promise<BuiltFile[]> {
  await mkdir(BROWSER_DIST, { recursive: true });
  const built: BuiltFile[] = [];
  for (const bundle of serviceWorker ? BUNDLES : BUNDLES.slice(0, 1)) {
    const path = `${BROWSER_DIST}${bundle.out}`;
    const result = await build({
      entryPoints: [fileURLToPath(new URL(bundle.entry, root))],
      outfile: path,
      bundle: true,
      format: bundle.format,
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'eof',
      plugins: [browserShims()],
      logLevel: 'silent',
      write: false,
    });
    // A warning here (import.meta in the worker, a dead import) is a page that breaks later.
    if (result.warnings.length > 0)
      throw new Error(`${bundle.out}: ${result.warnings.map((w) => w.text).join('; ')}`);
    const output = result.outputFiles.find((file) => file.path === path);
    if (output === undefined) throw new Error(`${bundle.out}: esbuild wrote no ${path}`);
    const { contents } = output;
    // Written aside, then renamed: a test serving or copying the file never reads half of it.
    const aside = `${path}.${process.pid}.tmp`;
    await writeFile(aside, contents);
    await rename(aside, path);
    built.push({ path, bytes: contents.byteLength });
  }
  return built;
}
