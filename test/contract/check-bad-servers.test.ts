import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/api/run-check.ts';
import { checkCli } from '../support/check-cli.ts';
import { refusingPort } from '../support/refusing-port.ts';
import { tempDir } from '../support/temp-dir.ts';

const exampleTarget = fileURLToPath(new URL('fixtures/example-target.json', import.meta.url));
process.env.HRMOCK_TEST_KEY = 'example-key';
const opened: { close: () => void }[] = [];
const sockets = new Set<Socket>();

afterAll(() => {
  for (const socket of sockets) socket.destroy();
  for (const server of opened) server.close();
});

function listen(server: Server | NetServer): Promise<string> {
  opened.push(server);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' ? address?.port : address}`);
    }),
  );
}

/** A server that answers every request with `status`, `type` and `body`, after `delayMs`. */
function answering(status: number, type: string, body: string | Buffer, delayMs = 0) {
  return listen(
    createHttpServer((req, res) => {
      req.resume();
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': type }).end(body);
      }, delayMs);
    }),
  );
}

/**
 * Runs `hrmock check` in process with a report written to a file (JUnit unless told), on the
 * example target unless `withTarget` is false; exit status, output and the report.
 */
async function check(base: string, extra: string[], reporter = 'junit', withTarget = true) {
  const dir = await tempDir('bad');
  const output = join(dir, `report.${reporter}`);
  const target = withTarget ? ['--target', exampleTarget] : [];
  const args = ['--base-url', base, ...target, ...extra];
  const { code, out, err } = await checkCli([...args, '--reporter', reporter, '--output', output]);
  const report = await readFile(output, 'utf8');
  return { code, out, err, report };
}

/** Six rules of little work each: enough to show a wrong server judged rule by rule. */
const SIX_RULES = ['ENV', 'GRD-DEFAULT', 'GRD-FULL', 'GRD-ALIGN', 'POST-LONG', 'PRED'].flatMap(
  (id) => ['--rule', id],
);

/** A JUnit test case as fast-xml-parser gives it: attributes as `@_name`, text as `#text`. */
type JunitCase = {
  '@_name': string;
  failure?: { '#text': string };
  error?: { '@_message': string };
};
/** A JUnit report as fast-xml-parser gives it: one item where the XML holds one, not a list. */
type Junit = { testsuites: { testsuite?: OneOrMore<{ testcase?: OneOrMore<JunitCase> }> } };
type OneOrMore<T> = T | T[];

function junitCases(xml: string): JunitCase[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed: Junit = new XMLParser({ ignoreAttributes: false }).parse(xml);
  const list = <T>(value: OneOrMore<T> | undefined): T[] =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];
  // The server's rules, then (when ADDITIVE ran) the contract documents' own suite.
  return list(parsed.testsuites.testsuite).flatMap((suite) => list(suite.testcase));
}

/** Why a JSON or pretty report says the run could not start, checking it holds no results. */
function couldNotRun(reporter: string, report: string): string | undefined {
  if (reporter === 'json') {
    const parsed = JSON.parse(report);
    expect(parsed).toMatchObject({ results: [], passed: 0, failed: 0, skipped: 0 });
    return parsed.error;
  }
  expect(report.trim().split('\n')).toHaveLength(2);
  return /^ {2}could not run: (.*)$/m.exec(report)?.[1];
}

describe('hrmock check against servers that misbehave', () => {
  it('stops with exit 2 and one line on a server that accepts and never answers', async () => {
    const silent = await listen(createNetServer(() => {}));
    const { code, err, report: xml } = await check(silent, ['--timeout', '1']);
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+ within 1 s/);
    expect(junitCases(xml)[0]?.error?.['@_message']).toMatch(/no answer/);
  });

  it('stops with exit 2 on a server that resets every connection', async () => {
    const reset = await listen(
      createNetServer((socket) => socket.on('data', () => socket.resetAndDestroy())),
    );
    const { code, err, report: xml } = await check(reset, []);
    expect(code).toBe(2);
    expect(err).toMatch(/cannot reach/);
    expect(junitCases(xml)[0]?.error).toBeDefined();
  });

  it.each(['json', 'pretty'])(
    'stops with exit 2 and one line on a refused base URL, and the %s report says it could not run',
    async (reporter) => {
      const refused = refusingPort().url;
      const { code, err, report } = await check(refused, [], reporter);
      expect(code).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(/^hrmock: cannot reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
      expect(couldNotRun(reporter, report)).toMatch(/^cannot reach .*ECONNREFUSED/);
    },
  );

  it.each(['json', 'pretty'])(
    'stops with exit 2 and one line on a server that never answers, and the %s report says it could not run',
    async (reporter) => {
      const silent = await listen(createNetServer(() => {}));
      const { code, err, report } = await check(silent, ['--timeout', '1'], reporter);
      expect(code).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+ within 1 s/);
      expect(couldNotRun(reporter, report)).toMatch(/^no answer from .* within 1 s/);
    },
  );

  it('fails the rules whose requests time out, with the request and the time as evidence', async () => {
    const slowGrading = await listen(
      createHttpServer((req, res) => {
        req.resume();
        const later = req.url?.includes('/grading') ? 3_000 : 0;
        setTimeout(() => {
          if (!res.destroyed)
            res
              .writeHead(400, { 'content-type': 'application/json' })
              .end('{"code":400,"message":"no"}');
        }, later);
      }),
    );
    // Two rules that ask /profiles/grading make the point; the others would only fail on the 400.
    const grading = ['--rule', 'GRD-DEFAULT', '--rule', 'GRD-FULL'];
    const { code, report: xml } = await check(slowGrading, ['--timeout', '1', ...grading]);
    expect(code).toBe(1);
    const cases = junitCases(xml);
    expect(cases.map((c) => c['@_name'].split(':')[0])).toEqual(['GRD-DEFAULT', 'GRD-FULL']);
    for (const { failure } of cases) {
      expect(failure?.['#text']).toMatch(/request: {2}GET \/profiles\/grading\?/);
      expect(failure?.['#text']).toMatch(/got: {6}no answer in 1 s/);
    }
  }, 60_000);

  it('ends a run against a server answering in 5 s at its deadline', async () => {
    const slow = await answering(404, 'application/json', '{"code":404,"message":"x"}', 5_000);
    // PAGE, with some 50 requests, would take minutes were the deadline not kept.
    const rules = ['--rule', 'GRD-DEFAULT', '--rule', 'PAGE'];
    const { code, report: xml } = await check(slow, ['--deadline', '6', ...rules]);
    expect(code).toBe(1);
    const failures = junitCases(xml).filter((c) => c.failure !== undefined);
    expect(failures.map((c) => c.failure?.['#text']).join('\n')).toMatch(/deadline/);
  }, 60_000);

  it('stops with exit 2 on a server answering HTML to everything: not the API, and says so', async () => {
    const page = '<!doctype html><html><head><title>Welcome</title></head><body>Hi</body></html>';
    const html = await answering(200, 'text/html; charset=utf-8', page);
    const { code, err, report: xml } = await check(html, []);
    expect(code).toBe(2);
    expect(err).toBe(
      `hrmock: not the API: GET ${html}/profiles/searching answered 200 text/html ("<!doctype html><html><head><title>Welcom…"); is --base-url the API's base (with its /v1)?\n`,
    );
    expect(junitCases(xml)[0]?.error?.['@_message']).toMatch(/^not the API: /);
  });

  it("says not the API without --target too, before asking for the mock's target", async () => {
    const html = await answering(404, 'text/html', '<h1>Not Found</h1>');
    const { code, report } = await check(html, [], 'pretty', false);
    expect(code).toBe(2);
    expect(couldNotRun('pretty', report)).toMatch(
      /^not the API: GET .*\/profiles\/searching answered 404 text\/html \("<h1>Not Found<\/h1>"\)/,
    );
  });

  it("gives runCheck the same verdict, as the report's error", async () => {
    const html = await answering(200, 'text/html', '<html><body>Welcome</body></html>');
    const target = JSON.parse(await readFile(exampleTarget, 'utf8'));
    const report = await runCheck({ baseUrl: html, target });
    expect(report).toMatchObject({ results: [], failed: 0 });
    expect(report.error).toMatch(
      /^not the API: GET .*\/profiles\/searching answered 200 text\/html/,
    );
  });

  it('judges a server that answers JSON, even as text/plain, however wrong (exit 1)', async () => {
    const plain = await answering(200, 'text/plain', '{"code":200,"message":"ok"}');
    const { code, report: xml } = await check(plain, SIX_RULES);
    expect(code).toBe(1);
    const cases = junitCases(xml);
    expect(cases).toHaveLength(6);
    expect(cases.filter((c) => c.failure !== undefined)).toHaveLength(6);
  });

  it('fails the rules on an empty 200', async () => {
    const empty = await answering(200, 'application/json', '');
    const { code, report: xml } = await check(empty, ['--rule', 'ENV', '--rule', 'GRD-DEFAULT']);
    expect(code).toBe(1);
    expect(junitCases(xml).find((c) => c['@_name'].startsWith('ENV'))?.failure).toBeDefined();
  });

  it('stops reading an answer of 10 MB and fails the rule with why', async () => {
    const huge = Buffer.alloc(10 * 1024 * 1024, 0x20);
    const big = await answering(200, 'application/json', huge);
    const { code, report: xml } = await check(big, ['--rule', 'ENV', '--rule', 'GRD-DEFAULT']);
    expect(code).toBe(1);
    const texts = junitCases(xml)
      .map((c) => c.failure?.['#text'] ?? '')
      .join('\n');
    expect(texts).toMatch(/over 5120 KiB; stopped reading there/);
  }, 30_000);
});
