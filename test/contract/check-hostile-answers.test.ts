import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../contract/suite/run-suite.ts';
import { CLI } from '../support/cli-entry.ts';
import { tempDir } from '../support/temp-dir.ts';

const exampleTarget = fileURLToPath(new URL('fixtures/example-target.json', import.meta.url));
const opened: Server[] = [];
const sockets = new Set<Socket>();

afterAll(() => {
  for (const socket of sockets) socket.destroy();
  for (const server of opened) server.close();
});

const ENVELOPE = '{"code":200,"message":"OK","meta":{"page":1,"maxPage":1,"count":1,"total":1}';

/**
 * A server on 127.0.0.1 answering every request with `body`, as JSON with status 200; counts
 * the requests it answers in `seen`.
 */
function answering(body: string, seen = { count: 0 }): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    seen.count++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
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

/**
 * `hrmock check` in a process of its own with a heap of 512 MiB, so that running out of memory
 * is an exit status and not the test runner's end; its status, stderr and report file.
 */
async function checkProcess(base: string, extra: string[]) {
  const output = join(await tempDir('hostile'), 'report.json');
  const args = ['--max-old-space-size=512', CLI, 'check', '--base-url', base, ...extra];
  const { code, stderr } = await new Promise<{ code: number | string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [...args, '--reporter', 'json', '--output', output],
      { env: { ...process.env, HRMOCK_TEST_KEY: 'example-key' }, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (error.code ?? error.signal ?? 1) : 0, stderr }),
    ),
  );
  const report = existsSync(output)
    ? (JSON.parse(await readFile(output, 'utf8')) as Report)
    : undefined;
  return { code, stderr, report };
}

/** Every piece of evidence of a report, as one text. */
function evidenceOf(report: Report | undefined): string {
  return (report?.results ?? [])
    .flatMap((r) =>
      r.outcome.status === 'fail' ? [r.outcome.evidence, ...(r.outcome.more ?? [])] : [],
    )
    .map((e) => `${e.request}\n${e.expected}\n${e.got}`)
    .join('\n');
}

/** Every answer goes through the same reading (the client), so a few rules show how it is read. */
const DEEP_RULES = ['ENV', 'GRD-DEFAULT', 'BAD-INPUT'];
/**
 * ENV judges every answer as it comes (what kept answers in memory, if anything would), and
 * ROUTES sends some 45 requests: far more 4 MiB answers than the heap could hold parsed.
 */
const FLAT_RULES = ['ENV', 'ROUTES'];
/** What one 4 MiB answer of 2 Mi small numbers takes parsed: 8 bytes an item. */
const PARSED_MIB = 16;

describe('hrmock check against answers built to exhaust it', () => {
  it('reports JSON nested 100,000 levels deep as answers nested deeper than 64, by its deadline', async () => {
    const depth = 100_000;
    const deep = await answering(`${ENVELOPE},"data":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    const { code, report } = await checkProcess(deep, [
      '--target',
      exampleTarget,
      '--deadline',
      '20',
      ...DEEP_RULES.flatMap((id) => ['--rule', id]),
    ]);
    expect(code).toBe(1);
    expect(report?.results.map((r) => r.id)).toEqual(DEEP_RULES);
    const env = report?.results.find((r) => r.id === 'ENV')?.outcome;
    expect(env?.status).toBe('fail');
    expect(evidenceOf(report)).toContain('answer nested deeper than 64 levels: {"code":200');
    expect(evidenceOf(report)).not.toMatch(/crashed|Maximum call stack/);
  }, 120_000);

  it('refuses a target nested too deep from a server without --target, exit 2, naming the depth', async () => {
    const depth = 100_000;
    const deep = await answering(
      `{"code":200,"data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
    );
    const { code, stderr, report } = await checkProcess(deep, ['--deadline', '20']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /no target at .*\/_mock\/target \(status 200, answer nested deeper than 64 levels\)/,
    );
    expect(report?.error).toMatch(/answer nested deeper than 64 levels/);
  }, 120_000);

  it('judges a 4 MiB flat array in every answer within a bounded heap and writes its report', async () => {
    const items = Array(2 * 1024 * 1024 - 64)
      .fill('1')
      .join(',');
    const seen = { count: 0 };
    const flat = await answering(`${ENVELOPE},"data":{"profiles":[${items}]}}`, seen);
    const { code, report } = await checkProcess(flat, [
      '--target',
      exampleTarget,
      '--deadline',
      '30',
      ...FLAT_RULES.flatMap((id) => ['--rule', id]),
    ]);
    expect(code).toBe(1);
    // Answers a 512 MiB heap could not hold parsed, all read: none was kept.
    expect(seen.count * PARSED_MIB).toBeGreaterThan(512 * 1.2);
    expect(report?.results.map((r) => r.id)).toEqual(FLAT_RULES);
    expect(report?.failed).toBeGreaterThan(0);
    expect(evidenceOf(report)).not.toMatch(/crashed/);
  }, 120_000);
});
