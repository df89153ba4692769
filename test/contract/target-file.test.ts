import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRADE_JOBS, GRADE_PROFILES, SCORE_PROFILES } from '../../contract/suite/operations.ts';
import { parseTarget, readTargetFile } from '../../contract/suite/target.ts';
import { checkCli, hrmockCli } from '../support/check-cli.ts';
import { EXAMPLE_KEYS } from '../support/contract-requests.ts';
import { tempDir } from '../support/temp-dir.ts';
import { key, writtenTarget } from '../support/written-target.ts';

describe("a target's grading algorithm", () => {
  it('may be named grading_algorithm_key, on profiles and jobs', () => {
    const t = parseTarget(
      writtenTarget({ grading_algorithm_key: 'grader-p' }, { grading_algorithm_key: 'grader-j' }),
      {},
      'target.json',
    );
    expect(GRADE_PROFILES.params(t).algorithm_key).toBe('grader-p');
    expect(GRADE_JOBS.params(t).algorithm_key).toBe('grader-j');
    expect(SCORE_PROFILES.params(t).algorithm_key).toBe('grader-p');
  });

  it('is taken when algorithm_key and grading_algorithm_key name the same one', () => {
    const same = { algorithm_key: 'g', grading_algorithm_key: 'g' };
    expect(parseTarget(writtenTarget(same, same), {}, 't').profiles.algorithm_key).toBe('g');
  });

  it('is refused when algorithm_key and grading_algorithm_key differ, naming both', () => {
    const both = { algorithm_key: 'g1', grading_algorithm_key: 'g2' };
    expect(() => parseTarget(writtenTarget({ algorithm_key: 'g' }, both), {}, 't')).toThrow(
      /jobs\.algorithm_key and jobs\.grading_algorithm_key name the same thing .* got "g1" and "g2"/,
    );
  });

  it('is required under one of its names', () => {
    expect(() => parseTarget(writtenTarget({}, { algorithm_key: 'g' }), {}, 't')).toThrow(
      /profiles\.algorithm_key must be a non-empty string/,
    );
  });
});

describe("a target's batches", () => {
  it('refuses one profile, saying what to send instead', () => {
    const one = [{ source_key: key('a'), profile_key: key('d') }];
    const target = writtenTarget({ algorithm_key: 'g', profile_ids: one }, { algorithm_key: 'g' });
    expect(() => parseTarget(target, {}, 'target.json')).toThrow(
      'target.json: profiles.profile_ids must list at least 2 profiles ({source_key, profile_key}), 10 recommended; got 1',
    );
  });

  it('refuses missing job_ids, saying what to send', () => {
    const target = writtenTarget(
      { algorithm_key: 'g' },
      { algorithm_key: 'g', job_ids: undefined },
    );
    expect(() => parseTarget(target, {}, 't')).toThrow(
      /jobs\.job_ids must list at least 2 jobs \(\{board_key, job_key\}\), 10 recommended; got none/,
    );
  });
});

describe('a target file', () => {
  it.each(['README.md', 'docs/contract-rules.md'])(
    'may be the example of %s, as written',
    async (file) => {
      const docs = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
      const section = docs.slice(docs.search(/a \*\*target\*\*/i));
      const json = /```json\n([\s\S]*?)```/.exec(section)?.[1] as string;
      const t = parseTarget(JSON.parse(json), { HRFLOW_API_KEY: 'k' }, 'docs');
      expect(t.profiles.profile_ids).toHaveLength(2);
      expect(t.jobs.algorithm_key).toBe('grader-hrflow-jobs-cosmic5');
    },
  );

  it('is refused over 1 MB before it is read, naming its size', async () => {
    const dir = await tempDir('target');
    const file = join(dir, 'target.json');
    await writeFile(file, `${JSON.stringify(writtenTarget())}${' '.repeat(1024 * 1024)}`);
    await expect(readTargetFile(file, {})).rejects.toThrow(
      /^the target file .*target\.json is \d+ bytes, over the 1 MB \(1048576 bytes\) a target may be/,
    );
  });

  it('over 1 MB stops hrmock check with exit 2 before any request', async () => {
    const dir = await tempDir('target');
    const file = join(dir, 'target.json');
    await writeFile(file, ' '.repeat(2 * 1024 * 1024));
    // Nothing need listen there: the target is refused before the server is asked anything.
    const { code, err } = await checkCli(['--base-url', 'http://127.0.0.1:1/v1', '--target', file]);
    expect(code).toBe(2);
    expect(err).toMatch(/is 2097152 bytes, over the 1 MB/);
  });
});

describe('hrmock target --from-contract', () => {
  it("prints a target of the contract's example keys, which check reads", async () => {
    const { code, out } = await hrmockCli(['target', '--from-contract']);
    expect(code).toBe(0);
    const t = parseTarget(JSON.parse(out), {}, 'stdout');
    expect(Object.keys(t.headers)).toEqual(['X-API-KEY', 'X-USER-EMAIL']);
    expect(t.profiles.source_keys).toEqual([EXAMPLE_KEYS.source]);
    expect(t.profiles.profile_ids.map((p) => p.profile_key)).toContain(EXAMPLE_KEYS.profile);
    expect(t.profiles.profile_ids.length).toBeGreaterThanOrEqual(2);
    expect(t.jobs.job_ids.map((j) => j.job_key)).toContain(EXAMPLE_KEYS.job);
    expect(t.jobs.board_keys).toEqual([EXAMPLE_KEYS.board]);
    expect(t.profiles.algorithm_key).toBe('grader-hrflow-profiles-cosmic5');
    expect(t.profiles.scoring_algorithm_key).toBe('scorer-hrflow-profiles');
  });

  it('writes it to --out FILE', async () => {
    const dir = await tempDir('target');
    const file = join(dir, 'target.json');
    const { code, out } = await hrmockCli(['target', '--from-contract', '--out', file]);
    expect(code).toBe(0);
    expect(out).toBe(`target written to ${file}\n`);
    const text = await readFile(file, 'utf8');
    expect(() => parseTarget(JSON.parse(text), {}, file)).not.toThrow();
  });

  it('refuses fixture flags with it', async () => {
    const { code, err } = await hrmockCli(['target', '--from-contract', '--profiles', '10']);
    expect(code).toBe(2);
    expect(err).toMatch(
      /--from-contract takes the keys of the contract's examples.*drop --profiles/,
    );
  });
});
