import { describe, expect, it } from 'vitest';
import { field } from '../../contract/suite/json-shape.ts';
import type { LiveExchange, LiveViolation } from '../../contract/suite/live-rules.ts';
import type {
  JobsGrading,
  ProfilesGrading,
  ProfilesScoring,
  ProfilesSearching,
} from '../support/answers.ts';
import { nth } from '../support/json-reads.ts';
import { asked, edited, newJudge, params } from './live-exchanges.ts';

// One judge for the one-exchange rules: remembering nothing, it compares no two exchanges.
const shared = newJudge({ remember: 0 });
/** What `rule` finds in one exchange. */
const found = (rule: string, e: LiveExchange): LiveViolation[] =>
  shared.judge(e).filter((v) => v.rule === rule);

const grading = await asked<ProfilesGrading>('GET', '/profiles/grading', params.gradeProfiles());
const full = await asked<ProfilesGrading>('GET', '/profiles/grading', {
  ...params.gradeProfiles(),
  return_profile: 'true',
});
const jobsFull = await asked<JobsGrading>('GET', '/jobs/grading', {
  ...params.gradeJobs(),
  return_job: '1',
});
const page = (ps: Record<string, unknown>) =>
  asked<ProfilesSearching>('GET', '/profiles/searching', { ...params.searchProfiles(), ...ps });
const scoring = (ps: Record<string, unknown>) =>
  asked<ProfilesScoring>('GET', '/profiles/scoring', { ...params.scoreProfiles(), ...ps });
const withFlag = (e: LiveExchange, value: unknown) => ({
  ...e,
  params: { ...e.params, return_profile: value },
});

describe('GRD-DEFAULT: grading without the full flag gives minimal items', () => {
  const fuller = edited(full, (b) => (b.data.profiles[0] = null));

  it('reports a full item answered without the flag, naming its extra fields', () => {
    const [violation] = found('GRD-DEFAULT', { ...fuller, params: grading.params });
    expect(violation?.expected).toMatch(/^minimal profiles \(key, reference,/);
    expect(violation?.got).toMatch(/^an item with .*info/);
  });

  it.each([false, 'false', '0', 'FALSE', 'x1', '1x', 'untrue'])(
    'reports it with the flag %j',
    (value) => {
      expect(found('GRD-DEFAULT', withFlag(fuller, value))).toHaveLength(1);
    },
  );

  it.each([true, 'true', '1', 'TRUE'])('leaves the flag %j to GRD-FULL', (value) => {
    expect(found('GRD-DEFAULT', withFlag(fuller, value))).toEqual([]);
  });

  it('leaves out an error answer', () => {
    const refused = { ...fuller, params: grading.params, status: 400 };
    expect(found('GRD-DEFAULT', refused)).toEqual([]);
  });
});

describe('GRD-FULL: grading with the full flag gives full items', () => {
  it('reports a minimal item, naming its place and the flag', () => {
    const [violation] = found('GRD-FULL', withFlag(grading, 'true'));
    expect(violation?.expected).toBe('item 0 a full Profile (return_profile=true)');
    expect(violation?.got).toMatch(/must have required property/);
  });

  it('reports a minimal job when return_job=1', () => {
    const minimal = edited(jobsFull, (b: { data: { jobs: unknown[] } }) => {
      b.data.jobs[1] = { key: field(b.data.jobs[1], 'key') };
    });
    expect(found('GRD-FULL', minimal)[0]?.expected).toBe('item 1 a full Job (return_job=true)');
  });

  it('takes a null item and full items', () => {
    expect(found('GRD-FULL', full)).toEqual([]);
    expect(
      found(
        'GRD-FULL',
        edited(full, (b) => (b.data.profiles[0] = null)),
      ),
    ).toEqual([]);
  });
});

describe('GRD-ALIGN: one item, score and error per key, in request order', () => {
  it('reports items in another order', () => {
    const swapped = edited(grading, (b) => b.data.profiles.reverse());
    const [violation] = found('GRD-ALIGN', swapped);
    expect(violation?.expected).toMatch(/^profiles\[0\]\.key = \S+ \(request order\)$/);
  });

  it('reads the keys of a jobs batch by job_key', async () => {
    const jobs = await asked<JobsGrading>('GET', '/jobs/grading', params.gradeJobs());
    expect(found('GRD-ALIGN', jobs)).toEqual([]);
    const swapped = edited(jobs, (b) => b.data.jobs.reverse());
    expect(found('GRD-ALIGN', swapped)[0]?.expected).toMatch(/^jobs\[0\]\.key = /);
  });

  it('reports one score fewer than keys', () => {
    const fewer = edited(grading, (b) => b.data.scores.pop());
    const count = grading.body.data.profiles.length;
    expect(found('GRD-ALIGN', fewer)[0]?.expected).toBe(`scores with ${count} entries`);
  });

  it('reads the keys of single mode, and leaves out a batch naming a key otherwise', () => {
    const [first] = params.gradeProfiles().profile_ids as Record<string, string>[];
    const { profile_ids: _, ...rest } = params.gradeProfiles();
    const single = { ...grading, params: { ...rest, ...first } };
    expect(found('GRD-ALIGN', single)[0]?.expected).toMatch(/with 1 entries$/);
    const unnamed = [first, { source_key: first?.source_key, profile_key: 5 }];
    expect(found('GRD-ALIGN', { ...grading, params: { ...rest, profile_ids: unnamed } })).toEqual(
      [],
    );
    const byReference = { ...grading, params: { ...rest, profile_reference: 'r' } };
    expect(found('GRD-ALIGN', byReference)).toEqual([]);
  });
});

describe('PAGE: count, page, maxPage and what a page holds', () => {
  it('reports a count one off', async () => {
    const off = edited(await page({ limit: 5 }), (b) => b.meta.count++);
    expect(found('PAGE', off)[0]?.expected).toBe('meta.count = 5 (the items on the page)');
  });

  it('reports items past the last page', async () => {
    const past = await page({ limit: 5, page: 9999 });
    const last = await page({ limit: 5, page: past.body.meta.maxPage });
    const repeated = edited(past, (b) => {
      b.data.profiles = last.body.data.profiles;
      b.meta.count = b.data.profiles.length;
    });
    expect(found('PAGE', past)).toEqual([]);
    expect(found('PAGE', last)).toEqual([]);
    const [violation] = found('PAGE', repeated);
    expect(violation?.expected).toBe('no items past the last page');
    expect(violation?.got).toBe(String(last.body.data.profiles.length));
  });

  it('reports a page holding less than the other pages leave of the total', async () => {
    const first = await page({ limit: 5 });
    const short = edited(first, (b) => {
      b.data.profiles.pop();
      b.meta.count--;
    });
    const { total, maxPage } = first.body.meta;
    const [violation] = found('PAGE', short);
    expect(violation?.expected).toBe(
      `at least 5 items (total ${total}, ${maxPage - 1} other pages of 5)`,
    );
    expect(violation?.got).toBe('4');
  });

  it('reads the default limit of 30 and page 1', async () => {
    const whole = await page({});
    expect(whole.body.meta.total).toBeGreaterThan(30);
    const short = edited(whole, (b) => {
      b.data.profiles.pop();
      b.meta.count--;
    });
    expect(found('PAGE', short)[0]?.expected).toMatch(/^at least 30 items/);
  });

  it('leaves out a limit or page that is not a whole number', async () => {
    const off = edited(await page({ limit: 5 }), (b) => b.meta.count++);
    expect(found('PAGE', { ...off, params: { ...off.params, limit: '5' } })).toEqual([]);
    expect(found('PAGE', { ...off, params: { ...off.params, page: 1.5 } })).toEqual([]);
  });
});

describe('PRED: predictions and score_threshold', () => {
  it('reports pairs that do not sum to 1', async () => {
    const bad = edited(await scoring({ limit: 5 }), (b) => (b.data.predictions[0] = [0.5, 0.6]));
    expect(found('PRED', bad)).toHaveLength(1);
  });

  it('reports a score under the threshold, showing its pair', async () => {
    const kept = await scoring({ limit: 5, score_threshold: 0.2 });
    expect(found('PRED', kept)).toEqual([]);
    const under = edited(kept, (b) => (b.data.predictions[1] = [0.9, 0.1]));
    const [violation] = found('PRED', under);
    expect(violation?.expected).toBe('every score >= score_threshold=0.2');
    expect(violation?.got).toBe('[0.9,0.1]');
  });

  it('takes a score equal to the threshold, and reads no threshold that is not a number', async () => {
    const kept = await scoring({ limit: 5, score_threshold: 0.1 });
    const equal = edited(kept, (b) => (b.data.predictions[0] = [0.9, 0.1]));
    expect(found('PRED', equal)).toEqual([]);
    expect(
      found('PRED', { ...equal, params: { ...equal.params, score_threshold: '0.5' } }),
    ).toEqual([]);
  });
});

describe('ORDER: an explicit order orders the items', () => {
  it.each(['created_at', 'updated_at'])('reports items out of %s order, either way', async (by) => {
    for (const order of ['asc', 'desc']) {
      const sorted = await page({ limit: 10, sort_by: by, order_by: order });
      expect(found('ORDER', sorted)).toEqual([]);
      const [violation] = found(
        'ORDER',
        edited(sorted, (b) => b.data.profiles.reverse()),
      );
      expect(violation?.expected).toBe(`profiles by ${by} ${order}`);
      expect(violation?.got).toBe('item 1 out of order');
    }
  });

  it('reports scores out of order, either way', async () => {
    for (const order of ['asc', 'desc']) {
      const sorted = await scoring({ limit: 10, sort_by: 'scoring', order_by: order });
      expect(found('ORDER', sorted)).toEqual([]);
      const swapped = edited(sorted, (b) => b.data.predictions.reverse());
      const [violation] = found('ORDER', swapped);
      expect(violation?.expected).toBe(`scores ordered ${order}`);
      expect(violation?.got).toMatch(/^score \S+ at 1$/);
    }
  });

  it('takes equal neighbours, and judges no grading or refused answer', async () => {
    const sorted = await page({ limit: 10, sort_by: 'created_at', order_by: 'asc' });
    const tied = edited(
      sorted,
      (b) => (nth(b.data.profiles, 1).created_at = nth(b.data.profiles, 0).created_at),
    );
    expect(found('ORDER', tied)).toEqual([]);
    const ordered = { ...grading.params, sort_by: 'created_at', order_by: 'asc' };
    const mixed = edited(full, (b) =>
      b.data.profiles.sort((x, y) => ((x?.created_at ?? '') < (y?.created_at ?? '') ? 1 : -1)),
    );
    expect(found('ORDER', { ...mixed, params: ordered })).toEqual([]);
    const refused = { ...sorted, status: 400, body: { code: 400, message: 'no' } };
    expect(() => shared.judge(refused)).not.toThrow();
  });

  it('leaves out no order_by, another order_by, and sort_by=scoring on searching', async () => {
    const sorted = await page({ limit: 10, sort_by: 'created_at', order_by: 'asc' });
    const reversed = edited(sorted, (b) => b.data.profiles.reverse());
    for (const order of [undefined, 'random'])
      expect(
        found('ORDER', { ...reversed, params: { ...reversed.params, order_by: order } }),
      ).toEqual([]);
    const scoringSort = { ...reversed.params, sort_by: 'scoring' };
    expect(found('ORDER', { ...reversed, params: scoringSort })).toEqual([]);
  });
});

describe('the rules that read a 200 answer', () => {
  it('leave a 200 without data to the envelope rules', async () => {
    const lists = [await page({ limit: 5 }), await scoring({ limit: 5 })];
    for (const e of [grading, full, jobsFull, ...lists]) {
      const rules = shared
        .judge(edited(e, (b: { data?: unknown }) => delete b.data))
        .map((v) => v.rule);
      expect(rules.filter((r) => r !== 'OLD-CLIENT')).toEqual(['ENV']);
    }
  });

  it('let a check that breaks, not a violation, through', async () => {
    const e = await scoring({ limit: 5 });
    const broken = edited(
      e,
      (b: { data: { predictions: unknown; profiles: unknown[] } }) =>
        (b.data.predictions = 'x'.repeat(b.data.profiles.length)),
    );
    expect(() => shared.judge(broken)).toThrow(TypeError);
  });

  it('read no parameters when they could not be read', () => {
    for (const e of [grading, full])
      expect(() => shared.judge({ ...e, params: undefined })).not.toThrow();
  });
});
