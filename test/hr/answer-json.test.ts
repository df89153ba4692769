import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { envelopeOf } from '../../src/hr/answer-json.ts';
import { gradingOperation, scoringOperation, searchOperation } from '../../src/hr/operations.ts';
import { createStore } from '../../src/store/store.ts';
import { envelope, scanGrading, scanScoring, scanSearch } from './reference/scan-operations.ts';
import { createScanStore } from './reference/scan-store.ts';

const fixtures = buildFixtures({ seed: 3, profiles: 500, jobs: 100 });
const store = createStore(fixtures);
const scan = createScanStore(fixtures);
const [job] = fixtures.jobs;
const [profile] = fixtures.profiles;
const ungradable = scan.profile.docs.find((d) => !d.gradable);
const sourceKeys = fixtures.sources.map((s) => s.key);
const boardKeys = fixtures.boards.map((b) => b.key);
const MISSING_KEY = 'f'.repeat(40);

const params = (values: Record<string, unknown>) => new Map(Object.entries(values));

const searches: Record<string, unknown>[] = [
  { source_keys: sourceKeys, text_keywords: ['english'], limit: 7 },
  { source_keys: sourceKeys, text_keywords: ['"quoted" \\ \u2028 é'], limit: 7 },
  { source_keys: [sourceKeys[0]], sort_by: 'searching', text_keywords: ['a'], page: 2 },
];

const gradings = [
  {
    algorithm_key: 'grader',
    board_key: job?.board_key,
    job_key: job?.key,
    profile_ids: [
      ...fixtures.profiles
        .slice(0, 3)
        .map((p) => ({ source_key: p.source_key, profile_key: p.key })),
      { source_key: ungradable?.containerKey, profile_key: ungradable?.key },
      { source_key: sourceKeys[0], profile_key: MISSING_KEY },
      { source_key: MISSING_KEY, profile_key: MISSING_KEY },
    ],
  },
  {
    algorithm_key: 'grader',
    board_key: job?.board_key,
    job_reference: job?.reference,
    source_key: profile?.source_key,
    profile_reference: profile?.reference,
    return_profile: 'true',
  },
];

describe('answers as JSON text', () => {
  it('serializes searching answers exactly as JSON.stringify of the answer object', () => {
    expect(ungradable).toBeDefined();
    for (const query of searches) {
      const answer = searchOperation(store, 'profile', params(query));
      const reference = scanSearch(scan, 'profile', params(query));
      if (!answer.ok || !reference.ok) throw new Error(`${JSON.stringify(query)} failed`);
      expect(answer.value.json).toBe(JSON.stringify(envelope(reference.value)));
    }
  });

  it('serializes scoring answers, predictions included, exactly as JSON.stringify does', () => {
    const query = {
      algorithm_key: 'scorer',
      source_key: profile?.source_key,
      profile_key: profile?.key,
      board_keys: boardKeys,
      sort_by: 'scoring',
      limit: 12,
    };
    const answer = scoringOperation(store, 'job', params(query));
    const reference = scanScoring(scan, 'job', params(query));
    if (!answer.ok || !reference.ok) throw new Error('scoring failed');
    expect(JSON.parse(answer.value.json).data.predictions).toHaveLength(12);
    expect(answer.value.json).toBe(JSON.stringify(envelope(reference.value)));
  });

  it.each([false, true])(
    'serializes grading answers (return_profile %s) exactly as JSON.stringify does',
    (full) => {
      for (const query of gradings) {
        const raw = params({ ...query, return_profile: String(full) });
        const answer = gradingOperation(store, 'profile', raw);
        const reference = scanGrading(scan, 'profile', raw);
        if (!answer.ok || !reference.ok) throw new Error(`${JSON.stringify(query)} failed`);
        expect(answer.value.json).toBe(JSON.stringify(envelope(reference.value)));
      }
    },
  );

  it('gives back the object form of an answer', () => {
    const answer = searchOperation(store, 'profile', params(searches[0] ?? {}));
    const reference = scanSearch(scan, 'profile', params(searches[0] ?? {}));
    if (!answer.ok || !reference.ok) throw new Error('searching failed');
    expect(envelopeOf(answer.value)).toEqual(envelope(reference.value));
  });

  it('answers status 200 with the JSON', () => {
    const answer = searchOperation(store, 'profile', params(searches[0] ?? {}));
    expect(answer.ok && answer.value.status).toBe(200);
  });

  it('gives the same JSON as UTF-8 bytes', () => {
    const query = gradings[0] ?? {};
    for (const answer of [
      searchOperation(store, 'profile', params(searches[1] ?? {})),
      gradingOperation(store, 'profile', params({ ...query, return_profile: 'true' })),
    ]) {
      if (!answer.ok) throw new Error('operation failed');
      expect(new TextDecoder().decode(answer.value.body())).toBe(answer.value.json);
      expect(Buffer.from(answer.value.body()).equals(Buffer.from(answer.value.json))).toBe(true);
    }
  });
});
