import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../contract/suite/run-suite.ts';
import { parseTarget, type Target } from '../../contract/suite/target.ts';
import { CLI } from '../support/cli-entry.ts';
import { startHrmockProcess } from '../support/hrmock-process.ts';
import { cleanTraffic, send } from '../support/live-traffic.ts';
import { tempDir } from '../support/temp-dir.ts';

const SIZES = ['--profiles', '300', '--jobs', '100'];

async function targetOf(base: string): Promise<Target> {
  const served = (await (await fetch(`${base}/_mock/target`)).json()) as { data: unknown };
  return parseTarget(served.data, null, base);
}

async function filesOf(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
}

/**
 * The rules the check runs through the proxy and again on the replay: the recording holds their
 * requests and no others. A GET search and the same search POSTed (one recording, replayed
 * twice), a POSTed grading body, and ENV judging every answer against the contract.
 */
const RECORDED_RULES = ['ENV', 'GRD-DEFAULT', 'POST-EQ'];

function check(base: string): Promise<{ code: number; report: Report }> {
  const rules = RECORDED_RULES.flatMap((id) => ['--rule', id]);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'check', '--base-url', base, ...rules, '--reporter', 'json'],
      { timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          report: JSON.parse(stdout) as Report,
        }),
    );
  });
}

describe('hrmock proxy --record', () => {
  it('keeps no API key, authorization, cookie or --redact-header value in the folder', async () => {
    const dir = await tempDir('recorded');
    const mock = await startHrmockProcess(['serve', '--port', '0', '--quiet', ...SIZES], {
      HRMOCK_API_KEY: 'key-K1-never-written',
    });
    const proxy = await startHrmockProcess([
      'proxy',
      '--upstream',
      mock.url,
      '--port',
      '0',
      '--record',
      dir,
      '--redact-header',
      'X-Trace-Token',
    ]);
    const target = (await (
      await fetch(`${mock.url}/_mock/target`, {
        headers: { 'x-api-key': 'key-K1-never-written' },
      })
    ).json()) as { data: unknown };
    const secrets = {
      'x-api-key': 'key-K1-never-written',
      authorization: 'Bearer bearer-B1-never-written',
      cookie: 'session=cookie-C1-never-written',
      'x-trace-token': 'trace-T1-never-written',
    };
    const statuses = [];
    for (const request of cleanTraffic(parseTarget(target.data, null, 'the mock'))) {
      const withParam = {
        ...request,
        path: `${request.path}&X-Trace-Token=trace-T1-never-written`,
      };
      statuses.push((await send(proxy.url, withParam, secrets)).status);
    }
    await proxy.stop();
    // The secrets reached the mock (it let the requests in), and none reached the folder.
    expect(statuses.filter((s) => s === 401)).toEqual([]);
    const files = await filesOf(dir);
    expect(files.length).toBeGreaterThan(10);
    const leaked = files.filter((text) => /never-written/.test(text));
    expect(leaked).toEqual([]);
  }, 120_000);
});

describe('hrmock serve --replay', () => {
  it('answers what was recorded with the same bodies once the upstream is gone', async () => {
    const dir = await tempDir('replayed');
    const mock = await startHrmockProcess(['serve', '--port', '0', '--quiet', ...SIZES]);
    const proxy = await startHrmockProcess([
      'proxy',
      '--upstream',
      mock.url,
      '--port',
      '0',
      '--record',
      dir,
    ]);
    const traffic = cleanTraffic(await targetOf(mock.url));
    const recorded: Awaited<ReturnType<typeof send>>[] = [];
    for (const request of traffic) recorded.push(await send(proxy.url, request));
    await proxy.stop();
    await mock.stop();
    // Other fixtures (seed 7): what comes back can only come from the recordings.
    const replay = await startHrmockProcess([
      'serve',
      '--port',
      '0',
      '--quiet',
      '--seed',
      '7',
      '--profiles',
      '40',
      '--replay',
      dir,
      '--replay-strict',
    ]);
    const replayed: Awaited<ReturnType<typeof send>>[] = [];
    for (const request of traffic) replayed.push(await send(replay.url, request));
    expect(replayed.map((a) => a.status)).toEqual(recorded.map((a) => a.status));
    const differing = traffic.filter(
      (_, i) => !replayed[i]?.body.equals(recorded[i]?.body as Buffer),
    );
    expect(differing).toEqual([]);
    // GET and POST with the same parameters are one recording.
    const first = traffic.find((r) =>
      r.path.startsWith('/profiles/searching'),
    ) as (typeof traffic)[0];
    const [path, query] = first.path.split('?') as [string, string];
    const body = JSON.stringify(Object.fromEntries(new URLSearchParams(query)));
    const posted = await send(replay.url, { method: 'POST', path, body });
    expect(posted.body.equals(replayed[traffic.indexOf(first)]?.body as Buffer)).toBe(true);
    const unknown = await fetch(
      `${replay.url}/jobs/searching?board_keys=${encodeURIComponent('["nowhere"]')}`,
    );
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain(
      'key /jobs/searching?board_keys=["nowhere"]',
    );
  }, 120_000);

  it('passes hrmock check, narrowed to a few rules, on the recording of that same check', async () => {
    const dir = await tempDir('checked');
    const mock = await startHrmockProcess(['serve', '--port', '0', '--quiet', ...SIZES]);
    const proxy = await startHrmockProcess([
      'proxy',
      '--upstream',
      mock.url,
      '--port',
      '0',
      '--record',
      dir,
    ]);
    const recordedRun = await check(proxy.url);
    await proxy.stop();
    await mock.stop();
    const replay = await startHrmockProcess([
      'serve',
      '--port',
      '0',
      '--quiet',
      ...SIZES,
      '--replay',
      dir,
      '--replay-strict',
    ]);
    const replayedRun = await check(replay.url);
    const outcomes = (report: Report) => report.results.map((r) => [r.id, r.outcome.status]);
    // Every rule passed through the proxy (so each recorded its answers), then on the replay.
    const passing = RECORDED_RULES.map((id) => [id, 'pass']);
    expect(outcomes(recordedRun.report)).toEqual(passing);
    expect(recordedRun.code).toBe(0);
    expect(outcomes(replayedRun.report)).toEqual(passing);
    expect(replayedRun.code).toBe(0);
  }, 300_000);
});
