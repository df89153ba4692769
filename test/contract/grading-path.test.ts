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

async function failedRules(url: string, target: Target): Promise<string[]> {
  const client = new SuiteClient({ baseUrl: url });
  const report = await runSuite({ client, baseUrl: url, target });
  return report.results.filter((r) => r.outcome.status === 'fail').map((r) => r.id);
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
    expect(await failedRules(server.url, singularTarget())).toEqual([]);
  });

  it('sends the grading rules to the singular paths when the target names them', async () => {
    const failed = await failedRules(pluralOnly.url, singularTarget());
    expect(failed).toEqual(expect.arrayContaining(['GRD-DEFAULT', 'GRD-FULL', 'GRD-ALIGN']));
  });

  it('grades through the plural spelling, and still fails the server for the missing singular one', async () => {
    const failed = await failedRules(pluralOnly.url, mockTarget);
    expect(failed).not.toEqual(expect.arrayContaining(['GRD-DEFAULT']));
    expect(failed.filter((id) => id.startsWith('GRD-'))).toEqual([]);
    // The contract documents /profile/grading and /job/grading: every documented path answers.
    expect(failed).toContain('ROUTES');
  });

  it('is read from a target file by hrmock check', async () => {
    const dir = await tempDir('grading-path');
    const file = join(dir, 'target.json');
    await writeFile(file, JSON.stringify(singularTarget()));
    const { runCli } = await import('../../src/cli/run-cli.ts');
    const quiet = process.stdout.write;
    process.stdout.write = () => true;
    try {
      expect(await runCli(['check', '--base-url', pluralOnly.url, '--target', file])).toBe(1);
      expect(await runCli(['check', '--base-url', server.url, '--target', file])).toBe(0);
    } finally {
      process.stdout.write = quiet;
    }
  });
});
