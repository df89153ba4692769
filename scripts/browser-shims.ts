import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import * as nodeGlobals from '../src/browser/shims/node-globals.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const shims = resolve(root, 'src/browser/shims');

/** `readFileSync(new URL('…', import.meta.url), 'utf8')`: a file shipped beside the module. */
const READ_BESIDE =
  /readFileSync\(\s*new URL\(\s*'([^']+)',\s*import\.meta\.url\s*\),\s*'utf8',?\s*\)/g;
const FS_IMPORT = /^import \{ readFileSync \} from 'node:fs';\n/m;

/**
 * Makes hrmock's Node-only seams work in a page, without touching the sources Node runs:
 * - `node:crypto` becomes sha1/sha256 of @noble/hashes, as synchronous as Node's
 *   (src/browser/shims/crypto.ts);
 * - files read beside a module (the contract) are inlined as text at build time;
 * - `Buffer` and `process` get imported from a shim by the modules of hrmock that use them;
 * - the /docs routes, which serve files from node_modules, are left out.
 * Anything else from Node fails the build (esbuild cannot resolve `node:*` for the browser),
 * and so does a `Buffer.x` or `process.x` the shim does not provide.
 */
export function browserShims(): Plugin {
  return {
    name: 'hrmock-browser-shims',
    setup(build) {
      build.onResolve({ filter: /^node:crypto$/ }, () => ({ path: resolve(shims, 'crypto.ts') }));
      build.onResolve({ filter: /^\.\/docs-routes\.ts$/ }, () => ({
        path: resolve(shims, 'docs-routes.ts'),
      }));
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const path = relative(root, args.path);
        if (!/^(src|mocks)\//.test(path) || path.startsWith('src/browser/')) return undefined;
        return { contents: shimmed(args.path, readFileSync(args.path, 'utf8')), loader: 'ts' };
      });
    },
  };
}

function shimmed(file: string, source: string): string {
  let text = source.replace(READ_BESIDE, (_, name: string) =>
    JSON.stringify(readFileSync(resolve(dirname(file), name), 'utf8')),
  );
  if (text !== source) {
    text = text.replace(FS_IMPORT, '');
    if (text.includes('readFileSync'))
      throw new Error(`${file}: reads files in a way the browser build cannot inline`);
  }
  const globals = Object.entries(nodeGlobals).filter(([name, shim]) => {
    const used = [...text.matchAll(new RegExp(`(?<![\\w.])${name}\\.(\\w+)`, 'g'))];
    const missing = used.find(([, member]) => !Object.hasOwn(shim, member as string));
    if (missing) throw new Error(`${file}: ${missing[0]} has no browser shim in node-globals.ts`);
    return used.length > 0;
  });
  if (globals.length === 0) return text;
  const names = globals.map(([name]) => name).join(', ');
  return `import { ${names} } from ${JSON.stringify(resolve(shims, 'node-globals.ts'))};\n${text}`;
}
