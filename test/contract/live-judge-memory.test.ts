import { describe, expect, it } from 'vitest';
import type { JobsGrading, JobsScoring, ProfilesSearching } from '../support/answers.ts';
import { asked, edited, exchange, newJudge, params, rulesOf } from './live-exchanges.ts';

const search = await asked<ProfilesSearching>('GET', '/profiles/searching', {
  ...params.searchProfiles(),
  limit: 5,
});
const posted = await asked<ProfilesSearching>('POST', '/profiles/searching', {
  ...params.searchProfiles(),
  limit: 5,
});
const other = edited(search, (b) => b.data.profiles.reverse());
const grading = await asked<JobsGrading>('GET', '/jobs/grading', params.gradeJobs());
const full = await asked<JobsGrading>('GET', '/jobs/grading', {
  ...params.gradeJobs(),
  return_job: 'true',
});
const scoring = (ps: Record<string, unknown> = {}) =>
  asked<JobsScoring>('GET', '/jobs/scoring', {
    ...GRADE_ANCHOR(),
    board_keys: [grading.body.data.jobs[0]?.board_key],
    ...ps,
  });
function GRADE_ANCHOR() {
  const { job_ids: _, ...anchor } = params.gradeJobs();
  return anchor;
}

describe('STABLE and POST-EQ: the same request answers as before', () => {
  it('reports a GET answered otherwise than the same GET before, and counts both checks', () => {
    const judge = newJudge();
    expect(judge.judge(search)).toEqual([]);
    const [violation] = judge.judge(other);
    expect(violation).toMatchObject({ rule: 'STABLE', side: 'server', got: 'another answer' });
    expect(violation?.expected).toMatch(/^status 200 and the answer given to GET \/profiles/);
    expect(judge.counts.get('STABLE')).toEqual({ checks: 1, violations: 1 });
    expect(rulesOf(judge.judge(edited(search, (b) => b.meta.count++)))).toEqual(['PAGE', 'STABLE']);
    expect(judge.counts.get('STABLE')).toEqual({ checks: 2, violations: 2 });
  });

  it('reports another status', () => {
    const judge = newJudge();
    judge.judge(search);
    const refused = { ...search, status: 400, body: { code: 400, message: 'no' } };
    const stable = judge.judge({ ...refused, text: JSON.stringify(refused.body) });
    expect(stable.find((v) => v.rule === 'STABLE')?.got).toBe('status 400');
  });

  it('reports a POST answered otherwise than the GET with the same parameters, or back', () => {
    const judge = newJudge();
    judge.judge(search);
    expect(rulesOf(judge.judge({ ...other, method: 'POST' }))).toEqual(['POST-EQ']);
    const again = newJudge();
    again.judge(search);
    expect(again.judge(posted)).toEqual([]);
    expect(rulesOf(again.judge(other))).toEqual(['POST-EQ']);
  });

  it('compares nothing after a 5xx, a 401, a 403 or a 429', () => {
    const judge = newJudge();
    for (const status of [401, 403, 429, 503]) {
      judge.judge({ ...search, status });
      expect(rulesOf(judge.judge({ ...search, status: 200 }))).toEqual([]);
    }
  });

  it('compares nothing with a request it forgot, and nothing with an undocumented one', () => {
    const judge = newJudge({ remember: 1 });
    judge.judge(search);
    judge.judge(posted.params === search.params ? posted : grading);
    expect(rulesOf(judge.judge(other))).toEqual([]);
    const fresh = newJudge();
    const sent = { method: 'DELETE', path: '/profiles/searching', params: search.params };
    fresh.judge(exchange(sent, 405, { code: 405, message: 'no' }, { allow: 'GET, POST' }));
    expect(rulesOf(fresh.judge(search))).toEqual([]);
    fresh.judge({
      ...other,
      params: undefined,
      path: '/jobs/searching',
      operation: '/jobs/searching',
    });
    const none = { ...search, params: {}, path: '/jobs/searching', operation: '/jobs/searching' };
    expect(rulesOf(fresh.judge(none))).not.toContain('STABLE');
  });
});

describe('GRD-FULL: full items agree with their minimal twins', () => {
  it('reports full items whose scores differ from the minimal ones', () => {
    const judge = newJudge();
    judge.judge(grading);
    const drifted = edited(
      full,
      (b: { data: { scores: unknown[] } }) =>
        (b.data.scores[0] = b.data.scores[0] === 0.5 ? 0.4 : 0.5),
    );
    const [violation] = judge.judge(drifted).filter((v) => v.rule === 'GRD-FULL');
    expect(violation).toMatchObject({ rule: 'GRD-FULL', got: 'others with return_job=true' });
    expect(violation?.expected).toMatch(/^the items \(minimal fields\), scores and errors/);
  });

  it('takes twins that agree, in either order', () => {
    const judge = newJudge();
    expect(judge.judge(full)).toEqual([]);
    expect(judge.judge(grading)).toEqual([]);
    expect(judge.counts.get('GRD-FULL')?.checks).toBeGreaterThan(full.body.data.jobs.length);
  });
});

describe('PRED: a threshold only drops items', () => {
  it('reports a total with score_threshold above the total without', async () => {
    const judge = newJudge();
    const all = await scoring({ limit: 5 });
    judge.judge(all);
    const kept = await scoring({ limit: 3, score_threshold: 0.01 });
    const more = edited(kept, (b) => (b.meta.total = all.body.meta.total + 1));
    const [violation] = judge.judge(more).filter((v) => v.rule === 'PRED');
    expect(violation?.expected).toMatch(new RegExp(`^a total <= ${all.body.meta.total}, `));
    expect(violation?.got).toMatch(new RegExp(`^${all.body.meta.total + 1} with score_threshold`));
    expect(rulesOf(judge.judge(kept))).not.toContain('PRED');
  });
});

describe('verdicts kept by fingerprint', () => {
  it('gives a repeat the same violations, counted again', () => {
    const judge = newJudge();
    const broken = edited(search, (b) => b.meta.count++);
    const first = judge.judge(broken, 'f1');
    expect(rulesOf(first)).toEqual(['PAGE']);
    expect(judge.repeat('f1')).toEqual(first);
    expect(judge.judge(search, 'f1')).toEqual(first);
    expect(judge.counts.get('PAGE')?.violations).toBe(3);
    expect(judge.counts.get('CLIENT')?.checks).toBe(6);
  });

  it('still compares a repeat with what came between', () => {
    const judge = newJudge();
    judge.judge(search, 'a');
    judge.judge(other, 'b');
    expect(rulesOf(judge.repeat('a') ?? [])).toEqual(['STABLE']);
  });

  it('forgets the oldest verdict past its limit, and knows no fingerprint it never saw', () => {
    const judge = newJudge({ verdicts: 1 });
    judge.judge(search, 'a');
    judge.judge(posted, 'b');
    expect(judge.repeat('a')).toBeUndefined();
    expect(judge.repeat('b')).toEqual([]);
    expect(judge.repeat('c')).toBeUndefined();
    judge.judge(search);
    expect(judge.repeat('b')).toEqual([]);
  });
});
