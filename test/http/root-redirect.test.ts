import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.ts';
import { mockApp } from '../support/mock-app.ts';

const { app, fixtures } = mockApp();

describe('GET / leads to the reference', () => {
  it('redirects the root to /docs', async () => {
    const response = await app.request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs');
  });

  it("redirects the root and the base path to the base path's /docs", async () => {
    const v1 = createApp({ data: fixtures, basePath: '/v1', log: false });
    for (const path of ['/', '/v1']) {
      const response = await v1.request(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe('/v1/docs');
    }
    expect((await v1.request('/v1/docs')).status).toBe(200);
  });
});
