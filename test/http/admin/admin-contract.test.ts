import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mockApp } from '../../support/mock-app.ts';

const { app } = mockApp();
const file = parse(readFileSync(new URL('../../../contract/admin.yaml', import.meta.url), 'utf8'));

describe('the admin API’s contract', () => {
  it('is served at GET /_mock/openapi.json, as the file says', async () => {
    const response = await app.request('/_mock/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(file);
  });

  it('documents every admin route the app has, with its method', () => {
    const routes = app.hono.routes
      .filter((r) => r.path.startsWith('/_mock/') && r.method !== 'ALL')
      .filter((r) => r.path !== '/_mock/target')
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(5);
    const documented = Object.entries(file.paths as Record<string, object>).flatMap(
      ([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(new Set(documented)).toEqual(new Set(routes));
  });

  it('stays behind the admin guard: another origin is refused', async () => {
    const response = await app.request('/_mock/openapi.json', {
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });
});
