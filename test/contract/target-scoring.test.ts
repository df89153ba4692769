import { describe, expect, it } from 'vitest';
import { SCORE_JOBS, SCORE_PROFILES } from '../../contract/suite/operations.ts';
import { parseTarget } from '../../contract/suite/target.ts';
import { writtenTarget } from '../support/written-target.ts';

const written = (profiles: Record<string, unknown> = {}, jobs: Record<string, unknown> = {}) =>
  writtenTarget(profiles, jobs, { profiles: 'grader-profiles', jobs: 'grader-jobs' });

describe("a target's scoring algorithm", () => {
  it('is the grading one when the target names none', () => {
    const t = parseTarget(written(), {}, 'target.json');
    expect(SCORE_PROFILES.params(t).algorithm_key).toBe('grader-profiles');
    expect(SCORE_JOBS.params(t).algorithm_key).toBe('grader-jobs');
  });

  it('is scoring_algorithm_key when the target names one, per side', () => {
    const t = parseTarget(
      written(
        { scoring_algorithm_key: 'scorer-profiles' },
        { scoring_algorithm_key: 'scorer-jobs' },
      ),
      {},
      'target.json',
    );
    expect(SCORE_PROFILES.params(t).algorithm_key).toBe('scorer-profiles');
    expect(SCORE_JOBS.params(t).algorithm_key).toBe('scorer-jobs');
  });

  it('is left out of scoring requests when the target says null (the default algorithm)', () => {
    const t = parseTarget(written({ scoring_algorithm_key: null }), {}, 'target.json');
    expect(SCORE_PROFILES.params(t)).not.toHaveProperty('algorithm_key');
    expect(SCORE_JOBS.params(t).algorithm_key).toBe('grader-jobs');
  });

  it('is refused when it is neither a name nor null, naming the field', () => {
    expect(() => parseTarget(written({}, { scoring_algorithm_key: 7 }), {}, 'target.json')).toThrow(
      /jobs\.scoring_algorithm_key must be a non-empty string/,
    );
  });
});
