import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence, Outcome } from '../../contract/suite/rule.ts';
import type { RunningServer } from '../../src/node/server.ts';
import type { Fetch } from '../mutants/mutants.ts';
import { checkCli, replay, serveMock } from '../support/check-cli.ts';

const NON_ASCII = /[^\p{ASCII}]/u;

/** A 500 on any non-ASCII character in a parameter (query or body): ODD-TEXT sends some, FUZZ too. */
const crashesOnNonAscii =
  (fetch: Fetch): Fetch =>
  async (request) => {
    const url = new URL(request.url);
    const query = [...url.searchParams].flat().join('');
    const body = request.method === 'GET' ? '' : await request.clone().text();
    if (!NON_ASCII.test(query + body)) return fetch(request);
    return new Response(JSON.stringify({ code: 500, message: 'Internal server error.' }), {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  };

/** Answers a PATCH (which no rule sends) with a bare text 405: a 4xx out of the envelope. */
const patchAnswersText =
  (fetch: Fetch): Fetch =>
  async (request) =>
    request.method === 'PATCH'
      ? new Response('Method Not Allowed', {
          status: 405,
          headers: { 'content-type': 'text/plain' },
        })
      : fetch(request);

/** The SDKs' singular grading path (the rules use the plural one) adds a field to minimal items. */
const singularGradingAddsField =
  (fetch: Fetch): Fetch =>
  async (request) => {
    const response = await fetch(request);
    if (!/\/(profile|job)\/grading$/.test(new URL(request.url).pathname) || response.status !== 200)
      return response;
    const body = await response.json();
    for (const item of body.data.profiles ?? body.data.jobs ?? [])
      if (item) item.archived_at = null;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };

/** Notes every request the server gets, in order. */
const recorded =
  (log: string[]) =>
  (fetch: Fetch): Fetch =>
  async (request) => {
    const body = request.method === 'GET' ? '' : await request.clone().text();
    log.push(`${request.method} ${request.url.replace(/^http:\/\/[^/]+/, '')} ${body}`);
    return fetch(request);
  };

/** The body a reproduce line sends: its last shell word, `'…'` or bash's `$'…'`. */
function bodyOf(reproduce: string): string {
  const word = /--data-binary (\$?)'(.*)'$/.exec(reproduce);
  if (word === null) return '';
  if (word[1] === '') return (word[2] as string).replaceAll(`'\\''`, "'");
  const bytes: number[] = [];
  const text = word[2] as string;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === 'x') {
      bytes.push(Number.parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (text[i] === '\\') {
      bytes.push(...Buffer.from(text[i + 1] as string));
      i += 1;
    } else {
      const char = String.fromCodePoint(text.codePointAt(i) as number);
      bytes.push(...Buffer.from(char));
      i += char.length - 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

const servers: RunningServer[] = [];
async function serve(wrap?: (fetch: Fetch) => Fetch): Promise<RunningServer> {
  const server = await serveMock(wrap);
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const server of servers) await server.close();
});

type Result = { id: string; subject: string; outcome: Outcome };

/** The evidence of a failed outcome; a pass or a skip fails the test. */
function evidenceOf(outcome: Outcome): Evidence {
  if (outcome.status !== 'fail') throw new Error(`the outcome is ${outcome.status}, not fail`);
  return outcome.evidence;
}
function fuzzResult(out: string): Result {
  return JSON.parse(out).results.find((r: Result) => r.id === 'FUZZ');
}

describe('--fuzz N --seed S', () => {
  let mock: RunningServer;
  beforeAll(async () => {
    mock = await serve();
  });

  // FUZZ after the other rules, in a whole run: the 4xx-out-of-envelope test below.
  it('passes against the mock, and alone covers every operation with a 2xx and a 4xx', async () => {
    const { code, out } = await checkCli([
      '--base-url',
      mock.url,
      '--fuzz',
      '300',
      '--seed',
      '11',
      '--rule',
      'FUZZ',
      '--reporter',
      'json',
    ]);
    const report = JSON.parse(out);
    expect(fuzzResult(out)?.outcome, JSON.stringify(fuzzResult(out)?.outcome)).toMatchObject({
      status: 'pass',
    });
    expect(code).toBe(0);
    expect(report.fuzz).toEqual({ runs: 300, seed: 11, judged: 300 });
    for (const op of report.coverage.operations) {
      const statuses = Object.entries(op.statuses)
        .filter(([, n]) => (n as number) > 0)
        .map(([s]) => s);
      expect(
        statuses.some((s) => s.startsWith('2')),
        op.operationId,
      ).toBe(true);
      expect(
        statuses.some((s) => s.startsWith('4')),
        op.operationId,
      ).toBe(true);
    }
    process.stdout.write(`mock with --fuzz 300: coverage ${report.coverage.percent}%\n`);
  }, 120_000);

  it('catches a server that crashes on non-ASCII characters, in ODD-TEXT and in FUZZ with a shrunk reproducer', async () => {
    const server = await serve(crashesOnNonAscii);
    const rulesOnly = await checkCli(['--base-url', server.url, '--rule', 'ODD-TEXT']);
    expect(rulesOnly.out).toMatch(/^ {2}FAIL {2}ODD-TEXT /m);
    expect(rulesOnly.code).toBe(1);
    const started = performance.now();
    const { code, out } = await checkCli([
      '--base-url',
      server.url,
      '--fuzz',
      '300',
      '--seed',
      '5',
      '--rule',
      'FUZZ',
      '--reporter',
      'json',
    ]);
    process.stdout.write(
      `non-ASCII mutant caught by --fuzz 300 in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    expect(code).toBe(1);
    const { outcome } = fuzzResult(out);
    expect(outcome.status).toBe('fail');
    const evidence = evidenceOf(outcome);
    expect(evidence.expected).toBe('no 5xx for anything a client sends');
    expect(evidence.request).toMatch(
      /of seed 5, shrunk \d+ times?; replay: --fuzz 300 --seed 5\)$/,
    );
    const reproduce = evidence.reproduce ?? '';
    process.stdout.write(`shrunk reproducer: ${reproduce}\n`);
    expect(await replay(reproduce)).toBe(500);
    // Shrunk: the non-ASCII text that fails is a single character.
    const url = new URL(/'(http[^']+)'/.exec(reproduce)?.[1] as string);
    const body = bodyOf(reproduce);
    const texts = [...url.searchParams.values(), ...(body ? [body] : [])].filter((v) =>
      NON_ASCII.test(v),
    );
    expect(texts).toHaveLength(1);
    expect([...(texts[0] as string)].filter((ch) => NON_ASCII.test(ch))).toHaveLength(1);
  }, 120_000);

  it('fails on a 4xx out of the error envelope, in ROUTES and ENV and in FUZZ', async () => {
    const server = await serve(patchAnswersText);
    const { code, out } = await checkCli([
      '--base-url',
      server.url,
      '--fuzz',
      '200',
      '--seed',
      '3',
      '--reporter',
      'json',
    ]);
    expect(code).toBe(1);
    expect(
      JSON.parse(out)
        .results.filter((r: Result) => r.outcome.status === 'fail')
        .map((r: Result) => r.id),
    ).toEqual(['ENV', 'ROUTES', 'FUZZ']);
    const evidence = evidenceOf(fuzzResult(out).outcome);
    expect(evidence.expected).toMatch(/Content-Type application\/json|a JSON body/);
    expect(evidence.reproduce).toMatch(/^curl .* -X PATCH /);
    expect(await replay(evidence.reproduce ?? '')).toBe(405);
  }, 120_000);

  it('fails on a 2xx that breaks the contract where no rule looks', async () => {
    const server = await serve(singularGradingAddsField);
    const { code, out } = await checkCli([
      '--base-url',
      server.url,
      '--fuzz',
      '200',
      '--seed',
      '3',
      '--rule',
      'FUZZ',
      '--reporter',
      'json',
    ]);
    expect(code).toBe(1);
    const evidence = evidenceOf(fuzzResult(out).outcome);
    expect(evidence.request).toMatch(/^GET \/(profile|job)\/grading\?/);
    expect(evidence.got).toMatch(/archived_at/);
  }, 120_000);

  it('sends the same requests for the same seed, and others for another seed', async () => {
    const runs: string[][] = [[], [], []];
    const urls = [];
    for (const log of runs) urls.push((await serve(recorded(log))).url);
    // FUZZ alone: every request the runs send is a generated one.
    const fuzz = (url: string, seed: string) =>
      checkCli(['--base-url', url, '--fuzz', '80', '--seed', seed, '--rule', 'FUZZ']);
    await fuzz(urls[0] as string, '42');
    await fuzz(urls[1] as string, '42');
    await fuzz(urls[2] as string, '43');
    const [first, again, other] = runs as [string[], string[], string[]];
    expect(first.length).toBeGreaterThan(80);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  }, 180_000);

  it('shows FUZZ in the pretty and JUnit reports, the seed with it', async () => {
    const fuzzOnly = ['--base-url', mock.url, '--fuzz', '20', '--seed', '9', '--rule', 'FUZZ'];
    const pretty = await checkCli(fuzzOnly);
    expect(pretty.out).toMatch(
      /^ {2}pass {2}FUZZ +20 requests generated from the contract \(seed 9\)/m,
    );
    expect(pretty.out).toMatch(
      /^1 rule: 1 passed, 0 failed, 0 skipped in [\d.]+ s; coverage [\d.]+%; fuzz seed 9$/m,
    );
    const junit = await checkCli([...fuzzOnly, '--reporter', 'junit']);
    expect(junit.out).toMatch(/<testcase classname="hrmock.contract" name="FUZZ: 20 requests/);
    expect(junit.out).toMatch(/<property name="fuzz.seed" value="9"\/>/);
  }, 120_000);

  it('draws a seed when none is given and prints it, so that the run replays', async () => {
    const { out } = await checkCli([
      ...['--base-url', mock.url, '--fuzz', '5', '--rule', 'FUZZ', '--reporter', 'json'],
    ]);
    expect(Number.isSafeInteger(JSON.parse(out).fuzz.seed)).toBe(true);
  }, 60_000);

  it.each([
    [['--fuzz=0'], /--fuzz takes how many requests to generate, a whole number from 1/],
    [['--fuzz', 'many'], /--fuzz takes how many requests/],
    [['--fuzz', '10', '--seed', 'abc'], /--seed takes a whole number from 0/],
    [['--fuzz', '10', '--seed=-4'], /--seed takes a whole number from 0/],
    [['--seed', '4'], /--seed seeds --fuzz: send --fuzz N with it/],
  ])('refuses %j, naming the flag and what to send', async (args, message) => {
    const { code, err } = await checkCli(args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });
});
