import { describe, expect, it, vi } from 'vitest';
import { joinNegativeValues } from '../src/cli/parse-errors.ts';
import { runCli } from '../src/cli/run-cli.ts';

/** Runs `hrmock …` in process: its exit status and what it wrote on stderr. */
async function hrmock(args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((c) => {
    err += String(c);
    return true;
  });
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await runCli(args), err };
  } finally {
    stderr.mockRestore();
    stdout.mockRestore();
  }
}

describe('a bad flag on the command line', () => {
  it('gets --fuzz its own words for a negative number, not the argument parser', async () => {
    expect(await hrmock(['check', '--fuzz', '-5'])).toEqual({
      code: 2,
      err: 'hrmock: --fuzz takes how many requests to generate, a whole number from 1 to 1000000 (e.g. 300), got "-5"\n',
    });
  });

  it('gets serve --port -1 a usage error naming the port range', async () => {
    expect(await hrmock(['serve', '--port', '-1'])).toEqual({
      code: 2,
      err: 'hrmock: --port takes a port from 0 to 65535 (0 picks a free one), e.g. 4010, got "-1"\n',
    });
  });

  it.each([
    [['check', '--timeout', '-2'], /--timeout takes seconds, .* got "-2"/],
    [['check', '--max-rps', '-0.5'], /--max-rps takes requests a second, .* got "-0\.5"/],
    [['check', '--min-coverage', '-10'], /--min-coverage takes a percentage .* got "-10"/],
    [['check', '--max-latency', '-1'], /--max-latency takes milliseconds .* got "-1"/],
    [['check', '--fuzz', '5', '--seed', '-1'], /--seed takes a whole number .* got "-1"/],
    [['serve', '--fail-rate', '-0.1'], /--fail-rate takes a share from 0 to 1, .* got "-0\.1"/],
    [['serve', '--rate-limit', '-1/s'], /--rate-limit takes requests a second .* got "-1\/s"/],
    [['fixtures', '--profiles', '-5'], /--profiles must be a whole number of at least 1, got "-5"/],
    [['target', '--jobs', '-3'], /--jobs must be a whole number of at least 1, got "-3"/],
    [['proxy', '--upstream', 'http://127.0.0.1:1', '--timeout', '-1'], /--timeout takes seconds/],
  ])('%j gets the flag its own usage error, exit 2', async (args, said) => {
    const { code, err } = await hrmock(args);
    expect(code).toBe(2);
    expect(err).toMatch(said);
    expect(err).not.toMatch(/ambiguous|ERR_PARSE_ARGS/);
  });

  it('names an unknown flag and the command whose --help lists them', async () => {
    expect(await hrmock(['check', '--unknown-flag'])).toEqual({
      code: 2,
      err: 'hrmock: unknown option --unknown-flag for check (hrmock check --help)\n',
    });
  });

  it('suggests the documented flag a mistyped one is close to', async () => {
    const { err } = await hrmock(['check', '--reportr', 'json']);
    expect(err).toBe(
      'hrmock: unknown option --reportr for check; did you mean --reporter? (hrmock check --help)\n',
    );
  });

  it('says what a flag takes when its value is missing', async () => {
    const { code, err } = await hrmock(['serve', '--port']);
    expect(code).toBe(2);
    expect(err).toBe(
      'hrmock: --port takes N, port to listen on (default 4010; 0 picks a free one), and nothing came after it (hrmock serve --help)\n',
    );
  });

  it('says how to give a value that starts with a dash and is no number', async () => {
    const { err } = await hrmock(['check', '--base-url', '-x']);
    expect(err).toMatch(
      /^hrmock: --base-url takes URL, the implementation, .*, got "-x", which reads as an option: write --base-url=-x if it is the value \(hrmock check --help\)\n$/,
    );
  });

  it('says a switch takes no value', async () => {
    const { err } = await hrmock(['serve', '--quiet=1']);
    expect(err).toBe(
      'hrmock: --quiet is a switch and takes no value, got "--quiet=1" (hrmock serve --help)\n',
    );
  });

  it('says a command takes options only when given a bare word', async () => {
    const { code, err } = await hrmock(['fixtures', 'out']);
    expect(code).toBe(2);
    expect(err).toMatch(
      /^hrmock: fixtures takes options only, got "out".*\(hrmock fixtures --help\)/,
    );
  });
});

describe('a negative number after a flag', () => {
  it('is joined to its flag, so the flag reads it as its value', () => {
    expect(joinNegativeValues(['--fuzz', '-5', '--seed', '-0.5', '--quiet'])).toEqual([
      '--fuzz=-5',
      '--seed=-0.5',
      '--quiet',
    ]);
  });

  it('is left alone after --, where a command to run begins', () => {
    expect(joinNegativeValues(['--port', '0', '--', 'sleep', '--n', '-1'])).toEqual([
      '--port',
      '0',
      '--',
      'sleep',
      '--n',
      '-1',
    ]);
  });
});
