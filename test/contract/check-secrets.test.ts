import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NoAnswer, SuiteClient } from '../../contract/suite/client.ts';
import { runCheck } from '../../src/api/run-check.ts';
import { runCli } from '../../src/cli/run-cli.ts';

const exampleTarget = fileURLToPath(new URL('fixtures/example-target.json', import.meta.url));
const SECRET = 'hrmock-secret-probe-7f3a';
const ECHOED = 'hrmock-echoed-key-51c9';
// biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax itself is under test
const REFERENCE = '${HRMOCK_LEAK_PROBE}';
const opened: Server[] = [];

type Seen = { path: string; headers: IncomingHttpHeaders };

/** A server on loopback that records every request it gets and answers with `answer`. */
async function recording(
  answer: (path: string, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    req.resume();
    seen.push({ path: req.url ?? '/', headers: req.headers });
    answer(req.url ?? '/', res);
  });
  opened.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function json(res: import('node:http').ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Every header value a server received, as one string to search. */
function everything(seen: Seen[]): string {
  return JSON.stringify(seen.map((s) => s.headers));
}

async function quietly<T>(run: () => Promise<T>): Promise<{ value: T; err: string }> {
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((c) => {
    err += String(c);
    return true;
  });
  try {
    return { value: await run(), err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

beforeAll(() => {
  process.env.HRMOCK_LEAK_PROBE = SECRET;
  process.env.HRMOCK_TEST_KEY = SECRET;
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  for (const server of opened) server.close();
  delete process.env.HRMOCK_LEAK_PROBE;
});

describe('a target served by the server under test', () => {
  const served = JSON.parse(readFileSync(exampleTarget, 'utf8'));
  const asking = { ...served, headers: { 'X-Leak': REFERENCE } };

  it('is never expanded against the local environment by hrmock check', async () => {
    const server = await recording((path, res) =>
      path === '/_mock/target' ? json(res, 200, { code: 200, data: asking }) : json(res, 404, {}),
    );
    const { value: code, err } = await quietly(() => runCli(['check', '--base-url', server.url]));
    expect(code).toBe(2);
    expect(err).toContain('may not name environment variables');
    expect(server.seen.length).toBeGreaterThan(0);
    expect(everything(server.seen)).not.toContain(SECRET);
  });

  it('is never expanded against the local environment by runCheck', async () => {
    const server = await recording((path, res) =>
      path === '/_mock/target' ? json(res, 200, { code: 200, data: asking }) : json(res, 404, {}),
    );
    const report = await runCheck({ baseUrl: server.url, timeoutMs: 2_000 });
    expect(report.error).toContain(`headers.X-Leak refers to ${REFERENCE}`);
    expect(everything(server.seen)).not.toContain(SECRET);
  });
});

describe('a redirect to another origin', () => {
  async function redirectingTo(elsewhere: string) {
    return recording((path, res) => {
      res.writeHead(307, { location: `${elsewhere}${path}` }).end();
    });
  }

  it('gets none of the headers of hrmock check, from the target file or --header', async () => {
    const other = await recording((_, res) => json(res, 200, { code: 200, data: {} }));
    const first = await redirectingTo(other.url);
    const { value: code, err } = await quietly(() =>
      runCli([
        'check',
        '--base-url',
        first.url,
        '--target',
        exampleTarget,
        '--header',
        `X-Extra=${REFERENCE}`,
      ]),
    );
    expect(code).toBe(2);
    expect(err).toContain(`redirected (307) to another origin, ${other.url}`);
    expect(everything(first.seen)).toContain(SECRET);
    expect(other.seen).toEqual([]);
  });

  it('is refused by the suite client, which names the other origin', async () => {
    const other = await recording((_, res) => json(res, 200, { code: 200, data: {} }));
    const first = await redirectingTo(other.url);
    const client = new SuiteClient({ baseUrl: first.url, headers: { 'X-API-KEY': SECRET } });
    const sent = client.post('/profiles/searching', { source_keys: ['a'] });
    await expect(sent).rejects.toThrow(NoAnswer);
    await expect(sent).rejects.toThrow(`to another origin, ${other.url}`);
    expect(other.seen).toEqual([]);
  });

  it('within the same origin is followed, headers kept', async () => {
    const server = await recording((path, res) => {
      if (path.startsWith('/old/')) res.writeHead(308, { location: path.slice(4) }).end();
      else json(res, 200, { code: 200, message: 'ok', data: { profiles: [] } });
    });
    const client = new SuiteClient({
      baseUrl: `${server.url}/old`,
      headers: { 'X-API-KEY': SECRET },
    });
    const exchange = await client.post('/profiles/searching', { source_keys: ['a'] });
    expect(exchange.status).toBe(200);
    expect(server.seen.map((s) => s.path)).toEqual([
      '/old/profiles/searching',
      '/profiles/searching',
    ]);
    expect(server.seen[1]?.headers['x-api-key']).toBe(SECRET);
  });
});

describe('a server that echoes the key it was sent', () => {
  /** Answers every request with a 200 whose message and data quote the X-API-KEY it got. */
  async function echoing(): Promise<string> {
    const server = createServer((req, res) => {
      req.resume();
      const key = String(req.headers['x-api-key'] ?? '');
      json(res, 200, { code: 200, message: `key ${key}`, data: { profiles: key, jobs: [key] } });
    });
    opened.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const REPORTERS = ['json', 'pretty', 'junit'];
  // One whole run (every rule, every answer echoing the key) writes all three reports; each test
  // reads its own. The reports of one run are the same data as those of three runs.
  let wholeRun: Promise<{ code: number; folder: string }> | undefined;
  const everyReporter = () => {
    wholeRun ??= (async () => {
      const url = await echoing();
      const folder = mkdtempSync(join(tmpdir(), 'hrmock-secrets-'));
      const outputs = REPORTERS.flatMap((r) => [
        '--reporter',
        r,
        '--output',
        join(folder, `report.${r}`),
      ]);
      const { value: code } = await quietly(() =>
        runCli([
          'check',
          ...['--base-url', url, '--target', exampleTarget],
          ...['--header', `X-API-KEY=${ECHOED}`, ...outputs],
        ]),
      );
      return { code, folder };
    })();
    return wholeRun;
  };

  it.each(REPORTERS)(
    'never has the --header value in a %s report of a whole run of hrmock check',
    async (reporter) => {
      const { code, folder } = await everyReporter();
      expect(code).toBe(1);
      const report = readFileSync(join(folder, `report.${reporter}`), 'utf8');
      expect(report).not.toContain(ECHOED);
      expect(report).toContain('[redacted]');
    },
  );

  it('never has a header value in the report runCheck gives', async () => {
    const url = await echoing();
    const target = JSON.parse(readFileSync(exampleTarget, 'utf8'));
    const report = await runCheck({
      baseUrl: url,
      target: { ...target, headers: {} },
      headers: { 'X-API-KEY': ECHOED },
      timeoutMs: 2_000,
    });
    expect(report.failed).toBeGreaterThan(0);
    expect(JSON.stringify(report)).not.toContain(ECHOED);
    expect(JSON.stringify(report)).toContain('[redacted]');
  });
});
