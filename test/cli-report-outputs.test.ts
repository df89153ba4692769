import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportOutput, reportOutputs } from '../src/cli/report-outputs.ts';
import type { RunningServer } from '../src/node/server.ts';
import { checkCli, serveMock } from './support/check-cli.ts';
import { CLI } from './support/cli-entry.ts';
import { startHrmockProcess } from './support/hrmock-process.ts';
import { tempDir } from './support/temp-dir.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The outputs a command line asks for, read as check and proxy read them. */
function outputsOf(args: string[]): ReportOutput[] {
  const { tokens } = parseArgs({
    args,
    options: {
      reporter: { type: 'string', multiple: true },
      output: { type: 'string', multiple: true },
      fuzz: { type: 'string' },
    },
    strict: true,
    tokens: true,
  });
  return reportOutputs(tokens);
}

describe('pairing --reporter and --output', () => {
  it.each<[string, string[], ReportOutput[]]>([
    ['nothing: pretty on stdout', [], [{ reporter: 'pretty' }]],
    ['one reporter: on stdout', ['--reporter', 'junit'], [{ reporter: 'junit' }]],
    ['one output: pretty there', ['--output', 'r.txt'], [{ reporter: 'pretty', file: 'r.txt' }]],
    [
      'reporter then output',
      ['--reporter', 'junit', '--output', 'a.xml'],
      [{ reporter: 'junit', file: 'a.xml' }],
    ],
    [
      'output then reporter, as old command lines wrote it',
      ['--output', 'a.xml', '--fuzz', '5', '--reporter', 'junit'],
      [{ reporter: 'junit', file: 'a.xml' }],
    ],
    [
      'each output after its reporter',
      ['--reporter', 'junit', '--output', 'a.xml', '--reporter', 'html', '--output', 'b.html'],
      [
        { reporter: 'junit', file: 'a.xml' },
        { reporter: 'html', file: 'b.html' },
      ],
    ],
    [
      'the last reporter with no output on stdout',
      ['--reporter', 'junit', '--output', 'a.xml', '--reporter', 'json'],
      [{ reporter: 'junit', file: 'a.xml' }, { reporter: 'json' }],
    ],
    [
      'the first reporter with no output on stdout',
      ['--reporter', 'json', '--reporter', 'html', '--output', 'b.html'],
      [{ reporter: 'json' }, { reporter: 'html', file: 'b.html' }],
    ],
    [
      'inline values and other flags between',
      [
        '--reporter=markdown',
        '--fuzz',
        '3',
        '--output=s.md',
        '--reporter',
        'pretty',
        '--output',
        'p',
      ],
      [
        { reporter: 'markdown', file: 's.md' },
        { reporter: 'pretty', file: 'p' },
      ],
    ],
  ])('%s', (_, args, expected) => {
    expect(outputsOf(args)).toEqual(expected);
  });

  it.each<[string, string[], RegExp]>([
    [
      'an unknown reporter',
      ['--reporter', 'xml'],
      /^--reporter must be one of pretty, junit, json, html, markdown, got "xml"$/,
    ],
    [
      'two reporters on stdout',
      ['--reporter', 'junit', '--reporter', 'json'],
      /^--reporter junit and --reporter json would all print to stdout: follow all but one with --output FILE$/,
    ],
    [
      'an output before any reporter, with several',
      ['--output', 'a', '--reporter', 'junit', '--output', 'b'],
      /^--output a has no --reporter just before it/,
    ],
    [
      'two outputs after one reporter',
      ['--reporter', 'junit', '--output', 'a', '--output', 'b'],
      /^--output b has no --reporter just before it/,
    ],
    [
      'one file twice',
      ['--reporter', 'junit', '--output', 'a', '--reporter', 'html', '--output', './a'],
      /^--output \.\/a is given twice/,
    ],
    ['an empty file name', ['--output', ''], /^--output takes a file name/],
  ])('refuses %s', (_, args, message) => {
    expect(() => outputsOf(args)).toThrow(message);
  });
});

/** What is written is the subject here, not the rules: two of them make a run. */
const NARROWED = ['--rule', 'ENV', '--rule', 'GRD-DEFAULT'];

describe('hrmock check with several reports', () => {
  let mock: RunningServer;
  beforeAll(async () => {
    mock = await serveMock();
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('writes JUnit, HTML and Markdown from one run of the mock in process, folders created, exit 0', async () => {
    const dir = await tempDir('reports');
    const args = [
      ...['check', '--reporter', 'junit', '--output', join(dir, 'r.xml')],
      ...['--reporter', 'html', '--output', join(dir, 'r.html')],
      ...['--reporter', 'markdown', '--output', join(dir, 'summary', 's.md')],
      ...NARROWED,
    ];
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, [CLI, ...args], { cwd: root }, (error, stdout) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      ),
    );
    expect(code).toBe(0);
    expect(XMLValidator.validate(await readFile(join(dir, 'r.xml'), 'utf8'))).toBe(true);
    expect(await readFile(join(dir, 'r.html'), 'utf8')).toMatch(/^<!DOCTYPE html>\n/);
    expect(await readFile(join(dir, 'summary', 's.md'), 'utf8')).toMatch(
      /^## ✅ hrmock check: PASS\n/,
    );
    expect(stdout).toMatch(/^2 rules: 2 passed, 0 failed, 0 skipped in [\d.]+ s/);
    expect(stdout.match(/^report written to .*$/gm)).toHaveLength(3);
  }, 120_000);

  it('keeps a JSON report on stdout parseable, saying on stderr where the file went', async () => {
    const dir = await tempDir('reports');
    const file = join(dir, 'r.xml');
    const args = ['--base-url', mock.url, ...NARROWED, '--reporter', 'json', '--reporter', 'junit'];
    const { code, out, err } = await checkCli([...args, '--output', file]);
    expect(code).toBe(0);
    expect(JSON.parse(out).failed).toBe(0);
    expect(err).toBe(`report written to ${file}\n`);
    expect(existsSync(file)).toBe(true);
  });

  it('stops with exit 2 and hrmock’s words on two reports for stdout, before any request', async () => {
    const { code, out, err } = await checkCli([
      '--base-url',
      'http://127.0.0.1:9',
      '--reporter',
      'junit',
      '--reporter',
      'markdown',
    ]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(
      /^hrmock: --reporter junit and --reporter markdown would all print to stdout/,
    );
  });
});

describe('hrmock proxy with several reports', () => {
  it('writes each on stop, a summary on stdout', async () => {
    const dir = await tempDir('proxy-reports');
    const proxy = await startHrmockProcess([
      ...['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0'],
      ...['--reporter', 'html', '--output', join(dir, 'p.html')],
      ...['--reporter', 'markdown', '--output', join(dir, 'md', 'p.md')],
    ]);
    const { code, stdout } = await proxy.stop();
    expect(code).toBe(0);
    expect(await readFile(join(dir, 'p.html'), 'utf8')).toContain('<h2>Exchanges</h2>');
    expect(await readFile(join(dir, 'md', 'p.md'), 'utf8')).toMatch(/^## ✅ hrmock proxy: PASS/);
    expect(stdout).toMatch(
      /\nhrmock proxy: 0 exchanges, 0 judged, 0 violations.*\nreport written to .*p\.html\nreport written to .*p\.md\n$/,
    );
  });
});
