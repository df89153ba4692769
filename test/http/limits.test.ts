import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { createApp } from '../../src/http/app.ts';
import { post, send } from '../support/mock-app.ts';

const fixtures = buildFixtures({ profiles: 60, jobs: 20 });
const sourceKeys = fixtures.sources.map((s) => s.key);
const app = createApp({
  data: fixtures,
  log: false,
  limits: { bodyBytes: 2_000, urlBytes: 600, jsonDepth: 5 },
});

describe('configured limits', () => {
  it('answers 413 just above the configured body size, and not at it', async () => {
    const at = JSON.stringify({ source_keys: sourceKeys, pad: 'x'.repeat(2_000 - 160) });
    const padded = JSON.stringify({ source_keys: sourceKeys, pad: 'x'.repeat(1_000) });
    expect(at.length).toBeLessThanOrEqual(2_000);
    expect((await post(app, '/profiles/searching', padded)).status).toBe(200);
    const over = JSON.stringify({ source_keys: sourceKeys, pad: 'x'.repeat(2_100) });
    const { status, body } = await post(app, '/profiles/searching', over);
    expect(status).toBe(413);
    expect(body.message).toMatch(/2000 bytes/);
  });

  it('answers 414 above the configured URL length, pointing at POST', async () => {
    const { status, body } = await send(
      app,
      `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify(sourceKeys))}&pad=${'y'.repeat(600)}`,
    );
    expect(status).toBe(414);
    expect(body.message).toMatch(/limit is 600.*POST/);
  });

  it('answers 400 above the configured JSON depth', async () => {
    const { status, body } = await post(
      app,
      '/profiles/searching',
      `{"source_keys": ${JSON.stringify(sourceKeys)}, "x": [[[[[1]]]]]}`,
    );
    expect(status).toBe(400);
    expect(body.message).toMatch(/deeper than 5/);
  });

  it('takes JSON exactly at the configured depth', async () => {
    const { status } = await post(
      app,
      '/profiles/searching',
      `{"source_keys": ${JSON.stringify(sourceKeys)}, "x": [[[1]]]}`,
    );
    expect(status).toBe(200);
  });
});
