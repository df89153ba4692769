import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';

const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files the page needs, with their types: nothing else is served from the package. */
const ASSETS: Record<string, string> = {
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
    function exampleFromTarget(name, target) {
      const p = target.profiles, j = target.jobs;
      const values = {
        source_keys: JSON.stringify(p.source_keys), board_keys: JSON.stringify(j.board_keys),
        board_key: p.board_key, job_key: p.job_key, source_key: j.source_key, profile_key: j.profile_key,
        profile_ids: JSON.stringify(p.profile_ids.slice(0, 3)), job_ids: JSON.stringify(j.job_ids.slice(0, 3)),
        algorithm_key: p.algorithm_key,
      };
      return values[name];
    }
    // The contract names a default server; "try it out" must call this very mock instead.
    const origin = window.location.origin + ${JSON.stringify(base)};
    document.getElementById('origin').textContent = origin;
    Promise.all([
      fetch(${JSON.stringify(`${base}/openapi.json`)}).then((r) => r.json()),
      fetch(${JSON.stringify(`${base}/_mock/target`)}).then((r) => r.json()).then((r) => r.data, () => null),
    ]).then(([spec, target]) => {
      spec.servers = [{ url: origin, description: 'this mock' }];
      // Swagger UI cannot render a query parameter that is anyOf (JSON text, or repeated keys):
      // show its first form, the JSON-encoded text, which is what the contract recommends.
      for (const parameter of Object.values(spec.components.parameters)) {
        const ref = parameter.schema && parameter.schema.$ref;
        if (ref && spec.components.schemas[ref.split('/').pop()].anyOf)
          parameter.schema = spec.components.schemas[ref.split('/').pop()];
        if (parameter.in === 'query' && parameter.schema && parameter.schema.anyOf) {
          const { contentMediaType, contentSchema, ...text } = parameter.schema.anyOf[0];
          parameter.schema = text;
        }
        // Pre-fill the keys this mock really has; leave the optional filters empty.
        const known = target && exampleFromTarget(parameter.name, target);
        if (known !== undefined && known !== null) parameter.example = known;
        else if (!parameter.required) delete parameter.example;
        // An optional parameter left empty takes its default on the server; pre-filling the
        // default would send it, and location_distance alone (without a point) is an error.
        if (!parameter.required && parameter.schema) {
          const ref = parameter.schema.$ref;
          const schema = ref ? { ...spec.components.schemas[ref.split('/').pop()] } : parameter.schema;
          delete schema.default;
          parameter.schema = schema;
        }
      }
      window.ui = SwaggerUIBundle({ spec, dom_id: '#app', deepLinking: true, tryItOutEnabled: true, validatorUrl: null });
    });
  </script>
</body>
</html>
`;
}

/** `/docs`: an interactive reference of the contract, working offline, whose "try it" calls the mock. */
export function docsRoutes(app: Hono, basePath: string): void {
  const html = page(basePath);
  app.get('/docs', (c) => c.html(html));
  app.get('/docs/', (c) => c.html(html));
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (type === undefined)
      return c.json({ code: 404, message: `Not found: /docs/assets/${file}.` }, 404);
    const bytes = await readFile(join(assetsDir, file));
    return c.body(bytes, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  });
}
