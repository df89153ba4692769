import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandWords,
  curlCommand,
  type SentRequest,
  shellWord,
  wordText,
} from '../../contract/suite/reproduce.ts';
import {
  cutField,
  keepLinesShort,
  MAX_LINE_BYTES,
  reproduceFolder,
  shortenReport,
} from '../../contract/suite/reproduce-files.ts';
import type { Evidence } from '../../contract/suite/rule.ts';
import type { Report } from '../../contract/suite/run-suite.ts';
import { hasCurl } from '../support/check-cli.ts';
import { tempDir } from '../support/temp-dir.ts';

/** Answers every request with a 200 whose first line says the method, URL length and body hash. */
let echo: Server;
let base: string;

beforeAll(async () => {
  expect(await hasCurl(), 'the replay tests run the lines with curl').toBe(true);
  // Long URLs are the point here: node's default header limit (16 KiB) would refuse them.
  echo = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
    const hash = createHash('sha256');
    req.on('data', (chunk) => hash.update(chunk));
    req.on('end', () => {
      const said = `${req.method} ${req.url?.length} ${hash.digest('hex')}`;
      res.writeHead(200, { 'content-type': 'text/plain', 'x-said': said }).end(said);
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const address = echo.address();
  base = `http://127.0.0.1:${typeof address === 'object' ? address?.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => echo?.close(resolve));
});

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function reportOf(...evidence: Evidence[]): Report {
  const [first, ...more] = evidence as [Evidence, ...Evidence[]];
  return {
    baseUrl: base,
    results: [
      {
        id: 'POST-LONG',
        title: 'a rule',
        subject: 'server',
        outcome: { status: 'fail', evidence: first, ...(more.length ? { more } : {}) },
        ms: 1,
      },
    ],
    passed: 0,
    failed: 1,
    skipped: 0,
    ms: 1,
  };
}

function failing(sent: SentRequest): Evidence {
  return {
    request: `${sent.method} /x`,
    expected: 'status 200',
    got: 'status 500',
    reproduce: curlCommand(sent, { 'X-API-KEY': '"$HRMOCK_KEY"' }),
  };
}

const post = (body: string, url = `${base}/profiles/searching`): SentRequest => ({
  method: 'POST',
  url,
  headers: { 'X-API-KEY': 'secret', 'Content-Type': 'application/json' },
  body,
});

function linesOf(report: Report): string[] {
  const outcome = report.results[0]?.outcome;
  if (outcome?.status !== 'fail') return [];
  return [outcome.evidence, ...(outcome.more ?? [])].map((e) => e.reproduce as string);
}

/** Writes the files where their lines name them, as check does. */
async function written(files: { path: string; text: string }[]): Promise<void> {
  for (const file of files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.text);
  }
}

/** What the echo server saw of a replayed line: method, URL length, body hash. */
async function replayed(line: string): Promise<string> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) =>
    execFile(
      'bash',
      ['-c', line],
      { env: { PATH: process.env.PATH ?? '', HRMOCK_KEY: 'k' } },
      (e, out) => (e ? reject(e) : resolve(/x-said: (.*)\r?\n/i.exec(out)?.[1] ?? '')),
    ),
  );
}

describe('reproduce lines over 8 KB', () => {
  it('keeps a line under 8 KB as it is', () => {
    const evidence = failing(post('{"limit":10}'));
    const short = keepLinesShort(reportOf(evidence), 'out/reproduce');
    expect(linesOf(short.report)).toEqual([evidence.reproduce]);
    expect(short.files).toEqual([]);
  });

  it('moves a body that makes a line over 8 KB to a numbered file read with --data-binary @', async () => {
    const dir = await tempDir('repro');
    const body = JSON.stringify({
      source_keys: ['a'.repeat(40)],
      text_keywords: 'x'.repeat(1_049_000),
    });
    const short = keepLinesShort(reportOf(failing(post(body))), join(dir, 'reproduce'));
    const [line] = linesOf(short.report) as [string];
    expect(Buffer.byteLength(line)).toBeLessThan(MAX_LINE_BYTES);
    expect(line).toContain(`--data-binary @${dir}/reproduce/001.json`);
    expect(short.files).toEqual([{ path: `${dir}/reproduce/001.json`, text: body }]);
    expect(short.bodies).toBe(1);
    await written(short.files);
    expect(await replayed(line)).toBe(`POST ${'/profiles/searching'.length} ${sha(body)}`);
  });

  it('writes a body byte for byte, control characters, quotes and non-ASCII included', async () => {
    const dir = await tempDir('repro');
    const body = `{"q":"${'é\u0001\'"$`\\'.repeat(2000)}\u{1F600}"}`;
    const short = keepLinesShort(reportOf(failing(post(body))), dir);
    expect(short.files[0]?.text).toBe(body);
    await written(short.files);
    expect(await replayed(linesOf(short.report)[0] as string)).toMatch(new RegExp(`${sha(body)}$`));
  });

  it('reads one file for the same body in two pieces of evidence', () => {
    const body = 'y'.repeat(20_000);
    const short = keepLinesShort(reportOf(failing(post(body)), failing(post(body))), 'r');
    expect(short.files.map((f) => f.path)).toEqual(['r/001.txt']);
    expect(linesOf(short.report).every((l) => l.includes('--data-binary @r/001.txt'))).toBe(true);
  });

  it('sends a URL over 8 KB with curl -G, its query read from a file, and says so', async () => {
    const dir = await tempDir('repro');
    const url = `${base}/profiles/searching?source_keys=${'%5B'.repeat(20_000)}`;
    const sent: SentRequest = { method: 'GET', url, headers: { 'X-API-KEY': 'k' } };
    const short = keepLinesShort(reportOf(failing(sent)), dir);
    const [line] = linesOf(short.report) as [string];
    expect(Buffer.byteLength(line)).toBeLessThan(MAX_LINE_BYTES);
    expect(line).toMatch(/^curl -sS -i -g -G -X GET '.*\/profiles\/searching' /);
    expect(line).toContain(
      `# a URL of ${url.length} bytes: its query is read from ${dir}/001.query`,
    );
    expect(short.urls).toBe(1);
    await written(short.files);
    const pathAndQuery = url.slice(base.length);
    expect(await replayed(line)).toBe(`GET ${pathAndQuery.length} ${sha('')}`);
  });

  it('keeps the URL of a request with a body in a curl config file when the URL is over 8 KB', async () => {
    const dir = await tempDir('repro');
    const url = `${base}/profiles/searching?page=${'1'.repeat(10_000)}`;
    const short = keepLinesShort(reportOf(failing(post('{"a":1}', url))), dir);
    const [line] = linesOf(short.report) as [string];
    expect(line).toContain(`--config ${dir}/001.curl`);
    expect(line).toContain(`--data-binary '{"a":1}' # a URL of ${url.length} bytes`);
    expect(short.files[0]?.text).toBe(`url = "${url}"\n`);
    await written(short.files);
    expect(await replayed(line)).toBe(`POST ${url.length - base.length} ${sha('{"a":1}')}`);
  });

  it('cuts any other evidence field over 8 KB, saying how long it was', () => {
    const got = `status 500: ${'z'.repeat(1_000_000)}`;
    const short = keepLinesShort(reportOf({ ...failing(post('{}')), got }), 'r');
    const outcome = short.report.results[0]?.outcome as { evidence: Evidence };
    expect(Buffer.byteLength(outcome.evidence.got)).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(outcome.evidence.got).toMatch(
      /^status 500: z+ … \[cut: 1000012 characters in all, the first 8 KB shown\]$/,
    );
    expect(cutField('short')).toBe('short');
  });

  it('names the folder beside the first report file, or hrmock-reproduce without one', () => {
    expect(reproduceFolder('out/report.xml')).toBe('out/reproduce');
    expect(reproduceFolder('report.json')).toBe('reproduce');
    expect(reproduceFolder(undefined)).toBe('hrmock-reproduce');
  });

  it('writes each file through the callback and says how many went where', async () => {
    const seen: string[] = [];
    const { note } = await shortenReport(
      reportOf(failing(post('a'.repeat(9000))), failing(post('b'.repeat(9000)))),
      'ci/report.json',
      async (path) => {
        seen.push(path);
      },
    );
    expect(seen).toEqual(['ci/reproduce/001.txt', 'ci/reproduce/002.txt']);
    expect(note).toBe(
      '2 request bodies written to ci/reproduce/ (the reproduce lines over 8 KB read them from there)',
    );
  });
});

describe('the shell words of a reproduce line', () => {
  it('give back the URL and body curlCommand quoted', () => {
    const body = `a'b\u0007c\u00e9\\"$x`;
    const line = curlCommand(post(body, `${base}/p?q='x'`), {});
    const words = commandWords(line);
    expect(wordText(words[6] as string)).toBe(`${base}/p?q='x'`);
    expect(wordText(words.at(-1) as string)).toBe(body);
    expect(wordText(shellWord('plain'))).toBe('plain');
  });
});
