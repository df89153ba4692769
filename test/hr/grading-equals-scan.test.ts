import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { gradingOperation } from '../../src/hr/operations.ts';
import { createStore } from '../../src/store/store.ts';
import { envelope, scanGrading } from './reference/scan-operations.ts';
import { createScanStore } from './reference/scan-store.ts';
import { outcomeOf } from './support/refusal.ts';

const fixtures = buildFixtures({ seed: 9, profiles: 300, jobs: 60 });
const store = createStore(fixtures);
const scan = createScanStore(fixtures);
const [job, otherJob] = fixtures.jobs;
const profiles = fixtures.profiles.slice(0, 4);
const ids = profiles.map((p) => ({ source_key: p.source_key, profile_key: p.key }));
const [first] = profiles;
const MISSING_KEY = 'f'.repeat(40);

/** A batch grading of a few profiles for one job: each case below changes one thing of it. */
const BATCH: Record<string, unknown> = {
  algorithm_key: 'grader',
  board_key: job?.board_key,
  job_key: job?.key,
  profile_ids: ids,
};
const SINGLE: Record<string, unknown> = {
  algorithm_key: 'grader',
  board_key: otherJob?.board_key,
  job_reference: otherJob?.reference,
  source_key: first?.source_key,
  profile_key: first?.key,
};

/** Grading parameters as clients send them, right and wrong. */
const CASES: Record<string, Record<string, unknown>> = {
  'a batch': BATCH,
  'a single profile': SINGLE,
  'a single profile by reference': {
    ...SINGLE,
    profile_key: null,
    profile_reference: first?.reference,
  },
  'the batch as JSON text': { ...BATCH, profile_ids: JSON.stringify(ids) },
  'the batch as one JSON item per repeated key': {
    ...BATCH,
    profile_ids: ids.map((id) => JSON.stringify(id)),
  },
  'a batch of 100': { ...BATCH, profile_ids: Array.from({ length: 100 }, (_, i) => ids[i % 4]) },
  'a batch of 101': { ...BATCH, profile_ids: Array.from({ length: 101 }, (_, i) => ids[i % 4]) },
  'an empty batch': { ...BATCH, profile_ids: [] },
  'a batch with a bad key': { ...BATCH, profile_ids: [{ source_key: 'abc', profile_key: 'x' }] },
  'both modes': { ...BATCH, source_key: first?.source_key, profile_key: first?.key },
  'neither mode': { ...BATCH, profile_ids: '' },
  'no algorithm_key': { ...BATCH, algorithm_key: null },
  'no job_key nor job_reference': { ...BATCH, job_key: undefined },
  'a malformed board_key': { ...BATCH, board_key: 'board' },
  'an unknown board': { ...BATCH, board_key: MISSING_KEY },
  'an unknown job': { ...BATCH, job_key: MISSING_KEY },
  'an unknown single profile': { ...SINGLE, profile_key: MISSING_KEY },
  'a profile of an unknown source': {
    ...BATCH,
    profile_ids: [{ source_key: MISSING_KEY, profile_key: MISSING_KEY }],
  },
};

/** Map entries without the undefined ones: an absent parameter is not sent at all. */
function raw(values: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** The real operation answers as the reference does: the same JSON, or a 400 naming the same. */
function expectSameAnswer(values: Record<string, unknown>) {
  const answer = gradingOperation(store, 'profile', raw(values));
  const reference = scanGrading(scan, 'profile', raw(values));
  if (!reference.ok) {
    expect(outcomeOf(answer)).toEqual(reference);
    return reference;
  }
  expect(answer.ok && answer.value.json).toBe(JSON.stringify(envelope(reference.value)));
  return reference;
}

describe('grading, as the reference reads its parameters', () => {
  it.each(Object.keys(CASES))('answers %s as the reference does', (name) => {
    expectSameAnswer(CASES[name] ?? {});
  });

  it.each([undefined, 'false', 'true', '1', '0', 'TRUE', 'False', true, false, 1, 0, 'yes', ''])(
    'reads return_profile=%s as the reference does, in both modes',
    (value) => {
      for (const query of [BATCH, SINGLE]) {
        const answered = expectSameAnswer({ ...query, return_profile: value });
        // Absent, the default holds: minimal profiles.
        if (value === undefined && answered.ok) {
          const items = answered.value.data.profiles as Record<string, unknown>[];
          expect(items.every((item) => !('info' in item))).toBe(true);
        }
      }
    },
  );
});
