import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/node/server.ts';
import { type Fetch, MUTANTS } from '../mutants/mutants.ts';
import {
  checkCli,
  type EveryReport,
  everyReport,
  hasCurl,
  replay,
  serveMock,
} from '../support/check-cli.ts';

const SECRET = 'repro-secret-5d1e';
const badInputGets500 = MUTANTS.find((m) => m.name === 'bad input gets a 500')?.wrap as (
  f: Fetch,
) => Fetch;

/** POST /profiles/searching answers 500 whenever its body holds `limit`: only a POST replays it. */
const postWithLimitFails =
  (fetch: Fetch): Fetch =>
  async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'POST' || !url.pathname.endsWith('/profiles/searching'))
      return fetch(request);
    const text = await request.clone().text();
    if (!text.includes('"limit"')) return fetch(request);
    return new Response(JSON.stringify({ code: 500, message: 'Internal server error.' }), {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  };

type Failure = {
  id: string;
  outcome: {
    evidence: { request: string; got: string; reproduce: string };
    more?: { reproduce: string }[];
  };
};

function failures(out: string): Failure[] {
  return JSON.parse(out).results.filter(
    (r: { outcome: { status: string } }) => r.outcome.status === 'fail',
  );
}

const servers: RunningServer[] = [];
let mutant: RunningServer;
let locked: RunningServer;
let postMutant: RunningServer;

beforeAll(async () => {
  expect(await hasCurl(), 'the reproducer tests run the printed command with curl').toBe(true);
  mutant = await serveMock(badInputGets500);
  locked = await serveMock(badInputGets500, { apiKey: SECRET });
  postMutant = await serveMock(postWithLimitFails);
  servers.push(mutant, locked, postMutant);
});

afterAll(async () => {
  for (const server of servers) await server.close();
});

/**
 * The rules `badInputGets500` makes fail in a whole run (the others pass, with nothing to
 * reproduce): their failures are every failure of such a run, for far fewer requests.
 */
const FAILING = ['BAD-INPUT', 'CROSS-PARAM', 'ODD-TEXT'].flatMap((id) => ['--rule', id]);

// One run against `mutant` in every reporter, shared by the tests that read it.
let ofMutant: Promise<EveryReport> | undefined;
const mutantRun = () => {
  ofMutant ??= everyReport(['--base-url', mutant.url, ...FAILING]);
  return ofMutant;
};

describe('a failure reproducer', () => {
  it('replays the BAD-INPUT failure with curl and gets the same status', async () => {
    const { code, json } = await mutantRun();
    expect(code).toBe(1);
    const bad = failures(json).find((f) => f.id === 'BAD-INPUT') as Failure;
    const { got, reproduce } = bad.outcome.evidence;
    expect(reproduce).toMatch(/^curl .* -X GET '.*\/profiles\/searching/);
    const failedWith = Number(/status (\d{3})/.exec(got)?.[1]);
    expect(failedWith).toBe(500);
    expect(await replay(reproduce)).toBe(failedWith);
  });

  it('shows secrets as environment references, which the replay reads', async () => {
    process.env.HRMOCK_REPRO_KEY = SECRET;
    const { out } = await checkCli([
      '--base-url',
      locked.url,
      '--header',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax itself is under test
      'X-API-KEY=${HRMOCK_REPRO_KEY}',
      '--header',
      'X-USER-EMAIL=ci@example.com',
      ...FAILING,
      '--reporter',
      'json',
    ]);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain('ci@example.com');
    const bad = failures(out).find((f) => f.id === 'BAD-INPUT') as Failure;
    const { reproduce } = bad.outcome.evidence;
    expect(reproduce).toContain(`-H "X-API-KEY: $HRMOCK_REPRO_KEY"`);
    expect(reproduce).toContain(`-H "X-USER-EMAIL: $X_USER_EMAIL"`);
    const env = { HRMOCK_REPRO_KEY: SECRET, X_USER_EMAIL: 'ci@example.com' };
    expect(await replay(reproduce, env)).toBe(500);
    // Without the variable the key is empty: the server refuses it, so the header came from it.
    expect(await replay(reproduce, {})).toBe(401);
  });

  it('replays a POST failure with its body', async () => {
    // POST-EQ is one of the rules that fail on it (BAD-INPUT, DEFAULTS and FILTERS too); one is enough.
    const args = ['--base-url', postMutant.url, '--rule', 'POST-EQ', '--reporter', 'json'];
    const { code, out } = await checkCli(args);
    expect(code).toBe(1);
    const post = failures(out).find((f) => f.outcome.evidence.reproduce.includes('-X POST'));
    expect(post, JSON.stringify(failures(out).map((f) => f.outcome.evidence))).toBeDefined();
    const { reproduce } = (post as Failure).outcome.evidence;
    expect(reproduce).toMatch(/-H 'Content-Type: application\/json' --data-binary '\{.*"limit"/);
    expect(await replay(reproduce)).toBe(500);
  });

  it('carries a reproduce line for every failure, in every reporter', async () => {
    const run = await mutantRun();
    const evidence = failures(run.json).flatMap((f) => [
      f.outcome.evidence,
      ...(f.outcome.more ?? []),
    ]);
    for (const item of evidence)
      expect(item.reproduce).toMatch(/^curl |^npx --no-install hrmock check/);
    const fails = run.out.match(/^ {2}FAIL /gm) ?? [];
    const lines = run.out.match(/^ {8}reproduce: curl /gm) ?? [];
    expect(fails.length).toBe(FAILING.length / 2);
    expect(lines.length).toBe(evidence.length);
    const inFailures = run.junit.match(/<failure [^>]*>[^<]*reproduce: curl /g) ?? [];
    expect(inFailures.length).toBe(fails.length);
  });
});
