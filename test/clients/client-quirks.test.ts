import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { mockApp } from '../support/mock-app.ts';
import { JsHrflow, readAsJsSdk } from './support/js-sdk.ts';

// Requests real clients send today, sent byte for byte as they build them (issue 28).
const { app } = mockApp();
const target = targetOf(app.state.store);
const sources = target.profiles.source_keys;
const { board_key: boardKey, job_key: jobKey } = target.profiles;
let server: RunningServer;
let sdk: JsHrflow;

beforeAll(async () => {
  server = await startServer(app);
  sdk = new JsHrflow({ apiUrl: server.url, apiSecret: 'any' });
});
afterAll(async () => {
  await server?.close();
});

/** GET of a query string written out by hand, exactly as the client puts it on the wire. */
async function getRaw(pathAndQuery: string) {
  const response = await fetch(`${server.url}${pathAndQuery}`);
  return { status: response.status, body: await response.json() };
}

async function postRaw(path: string, bytes: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: bytes,
  });
  return { status: response.status, body: await response.json() };
}

const list = (keys: string[]) => `[${keys.map((k) => `"${k}"`).join(',')}]`;

describe('stage and the other enum values in upper case (the JS SDK sends stage=YES)', () => {
  it.each(['/profiles/searching', '/profiles/scoring'])(
    'answers stage=YES on %s as stage=yes',
    async (path) => {
      const options = { stage: 'YES', limit: 10 };
      const request =
        path === '/profiles/searching'
          ? sdk.profile.searching.list(sources, options)
          : sdk.profile.scoring.list(sources, boardKey, jobKey, { ...options });
      expect(new URL(request.url).search).toContain('stage=YES');
      const upper = await readAsJsSdk(await fetch(request));
      const lower = await getRaw(
        `${new URL(request.url).pathname}${new URL(request.url).search.replace('stage=YES', 'stage=yes')}`,
      );
      expect(lower.status).toBe(200);
      expect(upper).toEqual(lower.body.data);
      // Searching finds profiles labelled yes for any job; scoring only those for its own job.
      if (path === '/profiles/searching') expect(lower.body.meta.total).toBeGreaterThan(0);
    },
  );

  it('answers sort_by and order_by in any case as in lower case', async () => {
    const query = `source_keys=${list(sources)}&sort_by=CREATED_AT&order_by=Asc&limit=20`;
    const mixed = await getRaw(`/profiles/searching?${query}`);
    const lower = await getRaw(`/profiles/searching?${query.toLowerCase()}`);
    expect(mixed.status).toBe(200);
    expect(mixed.body.data).toEqual(lower.body.data);
  });

  it('still refuses an unknown value, naming the parameter and the values it takes', async () => {
    const reply = await getRaw(`/profiles/searching?source_keys=${list(sources)}&stage=MAYBE`);
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].param).toBe('stage');
    expect(reply.body.errors[0].message).toMatch(/stage must be one of .*yes.*"MAYBE"/);
  });
});

describe('parameter names padded with spaces (HrFlow scoring notebook)', () => {
  it('reads %20%20algorithm_key and the other padded names of a GET', async () => {
    const names = `%20%20algorithm_key=scorer-hrflow-profiles&%20%20source_keys=${encodeURIComponent(list(sources))}&%20%20board_key=${boardKey}&job_key%20=${jobKey}&%20limit%20=5`;
    const padded = await getRaw(`/profiles/scoring?${names}`);
    const plain = await getRaw(
      `/profiles/scoring?algorithm_key=scorer-hrflow-profiles&source_keys=${encodeURIComponent(list(sources))}&board_key=${boardKey}&job_key=${jobKey}&limit=5`,
    );
    expect(padded.status).toBe(200);
    expect(padded.body.data).toEqual(plain.body.data);
    expect(padded.body.data.profiles).toHaveLength(5);
  });

  it('reads padded top-level names of a JSON body', async () => {
    const bytes = `{"  source_keys": ${list(sources)}, "board_key ": "${boardKey}", "\\tjob_key": "${jobKey}", " limit": 4}`;
    const padded = await postRaw('/profiles/scoring', bytes);
    const plain = await postRaw(
      '/profiles/scoring',
      JSON.stringify({ source_keys: sources, board_key: boardKey, job_key: jobKey, limit: 4 }),
    );
    expect(padded.status).toBe(200);
    expect(padded.body.data).toEqual(plain.body.data);
  });

  it('still ignores a name that is unknown once trimmed', async () => {
    const reply = await getRaw(`/profiles/searching?source_keys=${list(sources)}&%20%20colour=red`);
    expect(reply.status).toBe(200);
  });
});

describe('location orders without a point (the Python SDK lets them through)', () => {
  it.each([
    ['/profiles/searching', `source_keys=${list(sources)}&sort_by=location_experience`],
    ['/profiles/searching', `source_keys=${list(sources)}&sort_by=location`],
    [
      '/jobs/scoring',
      `board_keys=${list(target.jobs.board_keys)}&source_key=${target.jobs.source_key}&profile_key=${target.jobs.profile_key}&sort_by=location_education`,
    ],
  ])('answers %s?%s with the default order', async (path, query) => {
    const sorted = await getRaw(`${path}?${query}`);
    const plain = await getRaw(`${path}?${query.replace(/&sort_by=\w+/, '')}`);
    expect(sorted.status).toBe(200);
    expect(sorted.body.data).toEqual(plain.body.data);
  });
});
