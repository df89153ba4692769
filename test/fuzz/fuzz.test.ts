import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/hr/target.ts';
import { mockApp, validator } from '../support/mock-app.ts';
import { mutatedValid, requestArbitrary } from './arbitraries.ts';

/** `npm test` runs a few thousand cases; `npm run fuzz` sets FUZZ_RUNS=100000. FUZZ_SEED replays a run. */
const runs = Number(process.env.FUZZ_RUNS ?? 3000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const { app } = mockApp({ profiles: 300, jobs: 80 });
const t = targetOf(app.state.store);
const searching = {
  profiles: { source_keys: t.profiles.source_keys },
  jobs: { board_keys: t.jobs.board_keys },
};
const scoring = {
  profiles: {
    algorithm_key: 'a',
    board_key: t.profiles.board_key,
    job_key: t.profiles.job_key,
    ...searching.profiles,
  },
  jobs: {
    algorithm_key: 'a',
    source_key: t.jobs.source_key,
    profile_key: t.jobs.profile_key,
    ...searching.jobs,
  },
};
const bases: Record<string, Record<string, unknown>> = {
  'GET /profiles/grading': {
    algorithm_key: 'g',
    board_key: t.profiles.board_key,
    job_key: t.profiles.job_key,
    profile_ids: t.profiles.profile_ids,
  },
  'GET /jobs/grading': {
    algorithm_key: 'g',
    source_key: t.jobs.source_key,
    profile_key: t.jobs.profile_key,
    job_ids: t.jobs.job_ids,
  },
};
for (const method of ['GET', 'POST']) {
  for (const side of ['profiles', 'jobs'] as const) {
    bases[`${method} /${side}/searching`] = searching[side];
    bases[`${method} /${side}/scoring`] = scoring[side];
  }
}
const anyRequest = fc.oneof(requestArbitrary, mutatedValid(bases));
const DOCUMENTED = /^\/(profiles|jobs)\/(grading|searching|scoring)$/;

function documented(method: string, path: string): boolean {
  return (
    DOCUMENTED.test(path) && (method === 'GET' || (method === 'POST' && !path.endsWith('/grading')))
  );
}

describe(`fuzzing every operation (seed ${seed}, ${runs} cases; replay with FUZZ_SEED=${seed})`, () => {
  it('never answers 5xx, always answers JSON in a valid envelope, reaching every class of error', async () => {
    // Printed whether the run passes or fails, so any run can be replayed.
    process.stdout.write(`fuzz: seed ${seed}, ${runs} cases; replay with FUZZ_SEED=${seed}\n`);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(anyRequest, async (r) => {
        const response = await app.request(`${r.path}?${r.query}`, r.init);
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const where = `${r.method} ${r.path}?${r.query.slice(0, 200)} body ${String(r.init.body ?? '').slice(0, 200)}`;
        expect(response.status, where).toBeLessThan(500);
        if (r.method === 'HEAD' || (r.method === 'OPTIONS' && response.status === 204)) return;
        // The root sends a browser to the interactive docs.
        if (r.method === 'GET' && response.status === 302) {
          expect(response.headers.get('location'), where).toMatch(/\/docs$/);
          return;
        }
        expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
        const body = JSON.parse(text);
        expect(body.code, where).toBe(response.status);
        expect(text, where).not.toMatch(/\bat \S+\.(ts|js):\d+|node_modules|\/work\//);
        const verdict = documented(r.method, r.path)
          ? validator.validateResponse(r.path, r.method.toLowerCase(), response.status, body)
          : response.status >= 400
            ? validator.validateSchema('Error', body)
            : { ok: true as const };
        expect(verdict, where).toEqual({ ok: true });
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    process.stdout.write(
      `fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}\n`,
    );
    for (const status of [200, 400, 404, 405, 414, 415])
      expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
    expect((statuses.get(200) ?? 0) / runs).toBeGreaterThan(0.1);
  }, 600_000);

  it('keeps answering correctly after hostile requests, with no polluted prototype', async () => {
    // Its own burst of requests, so the test stands alone (`-t` included).
    await fc.assert(
      fc.asyncProperty(anyRequest, async (r) => {
        await (await app.request(`${r.path}?${r.query}`, r.init)).arrayBuffer();
      }),
      { seed, numRuns: Math.min(runs, 500) },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const query = new URLSearchParams({
      source_keys: JSON.stringify(t.profiles.source_keys),
      limit: '3',
    });
    const response = await app.request(`/profiles/searching?${query}`);
    expect(response.status).toBe(200);
    expect((await response.json()).meta.count).toBe(3);
  });
});
