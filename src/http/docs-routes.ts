import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { Target } from '../hr/target.ts';
import { contractDoc } from './contract-doc.ts';
import { docsSpec } from './docs-spec.ts';

/**
 * Swagger UI's files: in the package, copied next to dist/src at build time (so that installing
 * hrmock installs no swagger-ui-dist and none of its install scripts); in a checkout, from the
 * swagger-ui-dist dev dependency.
 */
const shipped = fileURLToPath(new URL('../../swagger-ui/', import.meta.url));
const assetsDir = existsSync(join(shipped, 'swagger-ui-bundle.js'))
  ? shipped
  : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files the page needs, with their types: nothing else is served from the package. */
export const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

function page(basePath: string): string {
  const base = basePath === '/' ? '' : basePath;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>hrmock: Profiles &amp; Jobs API</title>
  <link rel="icon" href="${base}/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
  <style>body { margin: 0 } .hrmock-banner { font: 14px sans-serif; padding: 8px 16px; background: #1b2b34; color: #fff }</style>
</head>
<body>
  <div class="hrmock-banner">hrmock: the contract, served by the mock itself. "Try it out" calls this mock at <code id="origin"></code>.</div>
  <div id="app"></div>
  <script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    // The contract names a default server; "try it out" must call this very mock instead.
    const origin = window.location.origin + ${JSON.stringify(base)};
    document.getElementById('origin').textContent = origin;
    fetch(${JSON.stringify(`${base}/docs/openapi.json`)}).then((r) => r.json()).then((spec) => {
      spec.servers = [{ url: origin, description: 'this mock' }];
      window.ui = SwaggerUIBundle({ spec, dom_id: '#app', deepLinking: true, tryItOutEnabled: true, validatorUrl: null });
    });
  </script>
</body>
</html>
`;
}

/** `/docs`: an interactive reference of the contract, working offline, whose "try it" calls the mock. */
export function docsRoutes(app: Hono, basePath: string, target: () => Target): void {
  const html = page(basePath);
  const docs = `${basePath === '/' ? '' : basePath}/docs`;
  // The base URL itself, opened in a browser, shows the reference.
  app.get('/', (c) => c.redirect(docs, 302));
  app.get('/docs', (c) => c.html(html));
  app.get('/docs/', (c) => c.html(html));
  // The contract as the page shows it, pre-filled with keys this mock has (made once a data set).
  let shown: { target: Target; spec: object } | undefined;
  app.get('/docs/openapi.json', (c) => {
    const now = target();
    if (shown === undefined || !sameTarget(shown.target, now))
      shown = {
        target: now,
        spec: docsSpec(contractDoc() as object as Record<string, unknown>, now),
      };
    return c.json(shown.spec);
  });
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = DOCS_ASSETS[file];
    if (type === undefined)
      return c.json({ code: 404, message: `Not found: /docs/assets/${file}.` }, 404);
    const bytes = await readFile(join(assetsDir, file));
    return c.body(bytes, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  });
}

function sameTarget(a: Target, b: Target): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
