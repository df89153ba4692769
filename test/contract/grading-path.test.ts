import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuiteClient } from '../../contract/suite/client.ts';
import { runSuite } from '../../contract/suite/run-suite.ts';
import { parseTarget, type Target } from '../../contract/suite/target.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { tempDir } from '../support/temp-dir.ts';

const fixtures = buildFixtures({ profiles: 300, jobs: 90 });
const app = createApp({ data: fixtures, log: false });
const mockTarget = { headers: {}, ...targetOf(app.state.store) };
let server: RunningServer;
let pluralOnly: RunningServer;

/** The mock, except that the singular grading paths are unknown (404), as a deployment may be. */
async function withoutSingular(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (path === '/profile/grading' || path === '/job/grading')
    return Response.json({ code: 404, message: `Not found: ${path}` }, { status: 404 });
  return app.fetch(request);
}

beforeAll(async () => {
  server = await startServer(app);
  pluralOnly = await startServer(app, { fetch: withoutSingular });
});

afterAll(async () => {
  await server?.close();
  await pluralOnly?.close();
});

function singularTarget(): Target {
  return {
    ...mockTarget,
    profiles: { ...mockTarget.profiles, grading_path: '/profile/grading' },
    jobs: { ...mockTarget.jobs, grading_path: '/job/grading' },
  };
}

/** The grading rules: the ones that send to the target's grading paths. */
const GRADING = ['GRD-DEFAULT', 'GRD-FULL', 'GRD-ALIGN'];

/** Each rule's outcome, the run narrowed to `only` (as `--rule` does) when given. */
async function outcomes(
  url: string,
  target: Target,
  only?: readonly string[],
): Promise<Record<string, string>> {
  const client = new SuiteClient({ baseUrl: url });
  const report = await runSuite({ client, baseUrl: url, target, ...(only ? { only } : {}) });
  return Object.fromEntries(report.results.map((r) => [r.id, r.outcome.status]));
}

describe("the target's grading_path", () => {
  it('defaults to the plural spelling', () => {
    const { grading_path: _p, ...profiles } = mockTarget.profiles;
    const { grading_path: _j, ...jobs } = mockTarget.jobs;
    const target = parseTarget({ profiles, jobs }, {}, 'target.json');
    expect(target.profiles.grading_path).toBe('/profiles/grading');
    expect(target.jobs.grading_path).toBe('/jobs/grading');
  });

  it('refuses a path that is neither spelling, naming the field', () => {
    const wrong = { ...mockTarget, profiles: { ...mockTarget.profiles, grading_path: '/grade' } };
    expect(() => parseTarget(wrong, {}, 'target.json')).toThrow(
      /profiles\.grading_path must be \/profiles\/grading or \/profile\/grading/,
    );
  });

  it('passes every rule on the mock with the singular spelling', async () => {
    // A whole run: that every rule, not only the grading ones, takes the singular spelling.
    const all = await outcomes(server.url, singularTarget());
    expect(Object.keys(all).length).toBeGreaterThan(GRADING.length);
    expect(Object.keys(all).filter((id) => all[id] === 'fail')).toEqual([]);
  });

  it('sends the grading rules to the singular paths when the target names them', async () => {
    // The server answers 404 on the singular paths only: each grading rule fails there.
    expect(await outcomes(pluralOnly.url, singularTarget(), GRADING)).toEqual({
      'GRD-DEFAULT': 'fail',
      'GRD-FULL': 'fail',
      'GRD-ALIGN': 'fail',
    });
  });

  it('grades through the plural spelling, and still fails the server for the missing singular one', async () => {
    // The contract documents /profile/grading and /job/grading: every documented path answers
    // (ROUTES), whichever spelling the target grades through.
    expect(await outcomes(pluralOnly.url, mockTarget, [...GRADING, 'ROUTES'])).toEqual({
      'GRD-DEFAULT': 'pass',
      'GRD-FULL': 'pass',
      'GRD-ALIGN': 'pass',
      ROUTES: 'fail',
    });
  });

  it('is read from a target file by hrmock check', async () => {
    const dir = await tempDir('grading-path');
    const file = join(dir, 'target.json');
    await writeFile(file, JSON.stringify(singularTarget()));
    const { runCli } = await import('../../src/cli/run-cli.ts');
    // The grading rules alone: on a server without the singular paths they fail only if the
    // file's spelling is the one sent (through the plural default they pass, as above).
    const rules = GRADING.flatMap((id) => ['--rule', id]);
    const quiet = process.stdout.write;
    let out = '';
    process.stdout.write = (chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    };
    let codes: number[];
    try {
      codes = [
        await runCli(['check', '--base-url', pluralOnly.url, '--target', file, ...rules]),
        await runCli(['check', '--base-url', server.url, '--target', file, ...rules]),
      ];
    } finally {
      process.stdout.write = quiet;
    }
    expect(out).toMatch(/^3 rules: 0 passed, 3 failed, 0 skipped in /m);
    expect(out).toMatch(/^3 rules: 3 passed, 0 failed, 0 skipped in /m);
    expect(codes).toEqual([1, 0]);
  });
});
