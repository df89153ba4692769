import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/node/server.ts';
import type { Fetch } from '../mutants/mutants.ts';
import { checkCli, hasCurl, replay, serveMock } from '../support/check-cli.ts';
import { CLI } from '../support/cli-entry.ts';
import { tempDir } from '../support/temp-dir.ts';

/** Any POST body over 16 KB gets a 500: POST-LONG fails on a request of 32 KB and more. */
const longBodiesFail =
  (fetch: Fetch): Fetch =>
  async (request) => {
    if (request.method !== 'POST') return fetch(request);
    const text = await request.clone().text();
    if (text.length <= 16 * 1024) return fetch(request);
    return new Response('{"code":500,"message":"Internal server error."}', {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  };

type Evidence = { request: string; expected: string; got: string; reproduce: string };

function everyEvidence(report: {
  results: { outcome: { status: string; evidence?: Evidence; more?: Evidence[] } }[];
}): Evidence[] {
  return report.results.flatMap((r) =>
    r.outcome.status === 'fail' ? [r.outcome.evidence as Evidence, ...(r.outcome.more ?? [])] : [],
  );
}

let server: RunningServer;

/**
 * The rules that fail against this server (those with long POSTs): the failures are the
 * subject, not the rules that pass, whose report lines are short whatever the bodies.
 */
const FAILING = ['--rule', 'POST-LONG', '--rule', 'REFUSALS'];
const REPORTERS = ['json', 'junit', 'pretty'];

// One run with every report in a file of one folder (the JSON first: reproduce/ goes beside it),
// shared by the tests that read it; the folder outlives a test, so it goes after them all.
let sharedDir: string | undefined;
let everyReporter: Promise<{ dir: string; code: number; out: string }> | undefined;
const longRun = () => {
  everyReporter ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hrmock-long-shared-'));
    sharedDir = dir;
    const pairs = REPORTERS.flatMap((r) => ['--reporter', r, '--output', join(dir, `report.${r}`)]);
    const { code, out } = await checkCli(['--base-url', server.url, ...FAILING, ...pairs]);
    return { dir, code, out };
  })();
  return everyReporter;
};

beforeAll(async () => {
  expect(await hasCurl(), 'the replay runs the printed line with curl').toBe(true);
  server = await serveMock(longBodiesFail);
});

afterAll(async () => {
  await server?.close();
  if (sharedDir !== undefined) await rm(sharedDir, { recursive: true, force: true });
});

describe('a failure whose request is over 8 KB', () => {
  it('keeps its body in reproduce/NNN.json beside the report, and the line replays it', async () => {
    const { dir, code, out } = await longRun();
    const output = join(dir, 'report.json');
    expect(code).toBe(1);
    const evidence = everyEvidence(JSON.parse(await readFile(output, 'utf8')));
    const long = evidence.find((e) => e.reproduce.includes(`--data-binary @${dir}/reproduce/`));
    expect(long, JSON.stringify(evidence.map((e) => e.reproduce.slice(0, 200)))).toBeDefined();
    const file = /--data-binary @(\S+)/.exec((long as Evidence).reproduce)?.[1] as string;
    expect(JSON.parse(await readFile(file, 'utf8'))).toBeTypeOf('object');
    expect(out).toMatch(
      new RegExp(
        `^\\d+ request bod(y|ies) written to ${dir}/reproduce/ \\(the reproduce lines`,
        'm',
      ),
    );
    expect(await replay((long as Evidence).reproduce)).toBe(500);
  });

  it('leaves no line of the report over 8 KB, in every reporter', async () => {
    const { dir, code } = await longRun();
    expect(code).toBe(1);
    for (const reporter of REPORTERS) {
      const lines = (await readFile(join(dir, `report.${reporter}`), 'utf8')).split('\n');
      expect(Math.max(...lines.map((l) => Buffer.byteLength(l)))).toBeLessThanOrEqual(8 * 1024);
    }
  });

  it('writes the bodies to hrmock-reproduce/ under the current folder when no report file is written', async () => {
    const dir = await tempDir('long');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, 'check', '--base-url', server.url, '--rule', 'POST-LONG'],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
    ).catch((e: { stdout: string }) => e);
    expect(stdout).toMatch(/reproduce: curl .* --data-binary @hrmock-reproduce\/001\.json/);
    expect(stdout).toMatch(/^\d+ request bod(y|ies) written to hrmock-reproduce\/ /m);
    expect(JSON.parse(await readFile(join(dir, 'hrmock-reproduce/001.json'), 'utf8'))).toBeTypeOf(
      'object',
    );
  });
});
