// npm run build: the package as JavaScript, for `npm install hrmock` with no TypeScript loader.
// dist/ mirrors the repository (dist/src, dist/mocks, dist/contract/suite), so the paths the code
// reads files by (the contract next to the suite) hold in the sources and in the build alike.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_ASSETS } from '../src/http/docs-routes.ts';
import { buildBrowser } from './browser-bundle.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'dist');

for (const part of ['src', 'mocks', 'contract'])
  rmSync(join(dist, part), { recursive: true, force: true });
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);

// `rewriteRelativeImportExtensions` (tsconfig.build.json) makes `./x.ts` `./x.js` in the
// JavaScript; the declarations keep `./x.ts`, which TypeScript resolves to the `./x.d.ts` beside
// them (microsoft/TypeScript#61037), as the install test's consumers check.
const declarations = [...walk(dist)].filter((file) => file.endsWith('.d.ts')).length;

// The worker the fixtures reader starts: plain JavaScript, shipped as it is.
cpSync(join(root, 'src/cli/fixtures-worker.mjs'), join(dist, 'src/cli/fixtures-worker.mjs'));
// The proxy's judge thread starts from this one; in dist it loads judge-thread.js.
cpSync(join(root, 'src/proxy/judge-worker.mjs'), join(dist, 'src/proxy/judge-worker.mjs'));

// The contract documents the code reads at run time.
cpSync(join(root, 'contract/openapi.yaml'), join(dist, 'contract/openapi.yaml'));
cpSync(join(root, 'contract/admin.yaml'), join(dist, 'contract/admin.yaml'));
cpSync(join(root, 'contract/history'), join(dist, 'contract/history'), { recursive: true });

// Swagger UI's files for /docs, so that swagger-ui-dist stays a dev dependency.
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
rmSync(join(dist, 'swagger-ui'), { recursive: true, force: true });
for (const file of Object.keys(DOCS_ASSETS))
  cpSync(join(swaggerUi, file), join(dist, 'swagger-ui', file));
cpSync(join(swaggerUi, 'LICENSE'), join(dist, 'swagger-ui', 'LICENSE'));

// One browser bundle: the package ships `hrmock/browser`, not the example's Service Worker.
const bundles = await buildBrowser({ serviceWorker: false });
console.log(
  `built dist/: JavaScript and ${declarations} declaration files, the contract, Swagger UI's files, ${bundles
    .map((b) => relative(root, b.path))
    .join(', ')}`,
);

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
