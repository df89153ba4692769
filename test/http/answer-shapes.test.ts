import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { answerOf, valueJson } from '../../src/hr/answer-json.ts';
import { gradingOperation, searchOperation } from '../../src/hr/operations.ts';
import { FastAnswer } from '../../src/node/fast-answer.ts';
import { createStore } from '../../src/store/store.ts';

// V8's own tests of object shapes. An object literal with a getter made per call is built by
// the runtime as a dictionary-mode object, and under load everything such an answer held was
// promoted out of the young generation: a third of what grading allocated, with scavenges of
// 3–4 ms. Answers are class instances, which keep one fast shape.
setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: object,
  b: object,
) => boolean;
const fastProperties = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;

const fixtures = buildFixtures({ seed: 5, profiles: 60, jobs: 10 });
const store = createStore(fixtures);
const sourceKeys = fixtures.sources.map((s) => s.key);
const [job] = fixtures.jobs;

function searched(keyword: string) {
  const result = searchOperation(
    store,
    'profile',
    new Map<string, unknown>([
      ['source_keys', sourceKeys],
      ['text_keywords', [keyword]],
      ['limit', 5],
    ]),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

function graded(count: number) {
  const result = gradingOperation(
    store,
    'profile',
    new Map<string, unknown>([
      ['algorithm_key', 'grader'],
      ['board_key', job?.board_key],
      ['job_key', job?.key],
      [
        'profile_ids',
        fixtures.profiles
          .slice(0, count)
          .map((p) => ({ source_key: p.source_key, profile_key: p.key })),
      ],
    ]),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('answers keep one fast shape', () => {
  it('tells a shared hidden class from two (the check itself)', () => {
    expect(sameHiddenClass({ a: 1 }, { a: 2 })).toBe(true);
    expect(sameHiddenClass({ a: 1 }, { b: 1 })).toBe(false);
    const withGetter = (value: number) => ({
      get a() {
        return value;
      },
    });
    // The shape the answers had: a getter made per object, a dictionary-mode object.
    expect(fastProperties({ a: 1 })).toBe(true);
    expect(fastProperties(withGetter(1))).toBe(false);
  });

  it('for every answer the operations make, read or not', () => {
    const answers = [
      answerOf('one', []),
      answerOf('two', [['x', valueJson([1, 2])]]),
      searched('english'),
      searched('python'),
      graded(1),
      graded(4),
    ];
    const [first] = answers;
    if (first === undefined) throw new Error('no answer');
    // Reading the body or the text caches them: the shape must not change with it.
    void answers[2]?.json;
    answers[3]?.body();
    for (const answer of answers) expect(fastProperties(answer)).toBe(true);
    for (const answer of answers.slice(1)) expect(sameHiddenClass(first, answer)).toBe(true);
  });

  it('for the fast path answers the listener writes, gzipped or not, read or not', () => {
    const plain = new FastAnswer(searched('english'), undefined);
    const zipped = new FastAnswer(graded(3), Buffer.from([0x1f, 0x8b]));
    const read = new FastAnswer(searched('python'), undefined);
    expect(read.body.length).toBeGreaterThan(0);
    read.wire = { plain: ['content-length', '1'] };
    for (const answer of [plain, zipped, read]) expect(fastProperties(answer)).toBe(true);
    expect(sameHiddenClass(plain, zipped)).toBe(true);
    expect(sameHiddenClass(plain, read)).toBe(true);
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(JSON.parse(searched('english').json));
  });
});
