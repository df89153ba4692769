import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_ANSWER_DEPTH,
  nestedDeeperThan,
  parseAnswer,
} from '../../contract/suite/answer-json.ts';
import { SuiteClient } from '../../contract/suite/client.ts';
import { seedFastCheck } from '../support/fuzz-seed.ts';

seedFastCheck('test/contract/answer-depth.test.ts');

/** How deep a parsed value nests arrays and objects (a scalar: 0). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const inner = Object.values(value as Record<string, unknown>).map(depthOf);
  return 1 + Math.max(0, ...inner);
}

/** Text that JSON escapes or that looks like nesting: quotes, backslashes, brackets. */
const TRICKY = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', '\\"') });

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A client whose every request is answered 200 with `text` as JSON. */
function answeredWith(text: string): SuiteClient {
  const fetch = async () =>
    new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  return new SuiteClient({ baseUrl: 'http://server', fetch });
}

describe('the depth of an answer', () => {
  it('parses an answer nested exactly as deep as the limit', () => {
    expect(parseAnswer(nested(MAX_ANSWER_DEPTH))).toMatchObject({ ok: true });
  });

  it('refuses an answer nested one level deeper, saying why', () => {
    expect(parseAnswer(nested(MAX_ANSWER_DEPTH + 1))).toEqual({
      ok: false,
      why: 'answer nested deeper than 64 levels',
    });
  });

  it('counts no bracket inside a string, an escaped quote included', () => {
    expect(nestedDeeperThan('{"a":"[[[{{{","b":"\\"[[[["}', 1)).toBe(false);
    expect(nestedDeeperThan('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
  });

  it('agrees with the depth of the value for any JSON, however its strings are escaped', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        TRICKY,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(TRICKY, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (v, max) => {
        expect(nestedDeeperThan(JSON.stringify(v), max)).toBe(depthOf(v) > max);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a million levels without a stack to overflow', () => {
    expect(nestedDeeperThan(nested(1_000_000), 64)).toBe(true);
  });

  it('gives the rules no body for an answer nested too deep, and the reason', async () => {
    const client = answeredWith(`{"code":200,"data":${nested(100_000)}}`);
    const exchange = await client.get('/profiles/searching');
    expect(exchange.body).toBeUndefined();
    expect(exchange.notJson).toBe('answer nested deeper than 64 levels');
  });

  it('keeps no answer text or body of an exchange once the rules have it', async () => {
    const client = answeredWith('{"code":200,"message":"OK","data":{"profiles":[]}}');
    const seen: string[] = [];
    const stop = client.onAnswer((exchange) => seen.push(exchange.text));
    await client.get('/profiles/searching');
    stop();
    await client.get('/jobs/searching');
    expect(seen).toEqual(['{"code":200,"message":"OK","data":{"profiles":[]}}']);
    expect(client.exchanges.map((e) => [e.path, 'text' in e, 'body' in e])).toEqual([
      ['/profiles/searching', false, false],
      ['/jobs/searching', false, false],
    ]);
  });
});
