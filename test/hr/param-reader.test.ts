import { describe, expect, it } from 'vitest';
import { ParamReader } from '../../src/hr/params.ts';
import { readRange } from '../../src/hr/sdk-filters.ts';

const KEYS = Array.from({ length: 20 }, (_, i) => i.toString(16).padStart(40, 'a'));
const reader = (values: Record<string, unknown>) =>
  new ParamReader(new Map(Object.entries(values)));
const errorsOf = (read: ParamReader) => {
  const result = read.finish(null);
  return result.ok ? [] : result.errors;
};

describe('ParamReader', () => {
  it('keeps a list of keys as sent when no key repeats', () => {
    expect(reader({ source_keys: KEYS.slice(0, 3) }).keyList('source_keys', 'source')).toEqual(
      KEYS.slice(0, 3),
    );
  });

  it('keeps each key once, in its first place, in a short list and in a long one', () => {
    const [a, b, c] = KEYS as [string, string, string];
    expect(reader({ k: [a, b, a, c, b] }).keyList('k', 'source')).toEqual([a, b, c]);
    const long = [...KEYS, KEYS[3] as string, KEYS[0] as string];
    expect(reader({ k: long }).keyList('k', 'source')).toEqual(KEYS);
  });

  it('reads a list of plain strings as they are, and decodes the items that are JSON', () => {
    expect(reader({ text_keywords: ['python', ' sql '] }).keywords('text_keywords')).toEqual([
      'python',
      'sql',
    ]);
    // Repeated query keys whose values are JSON: an item, or a list spliced in.
    const skills = reader({ skills: ['[{"name":"python"},{"name":"go"}]', '{"name":"sql"}'] });
    expect(skills.itemFilters('skills')).toEqual([
      { name: 'python', value: null },
      { name: 'go', value: null },
      { name: 'sql', value: null },
    ]);
  });

  it('says what an integer or a number must be only when it is not one', () => {
    const read = reader({ limit: 500, page: 'x', location_distance: -3, years: 'abc' });
    expect(read.integer('limit', { min: 1, max: 100, fallback: 30 })).toBe(30);
    expect(read.integer('page', { min: 1, fallback: 1 })).toBe(1);
    expect(read.number('location_distance', { above: 0, unit: 'kilometres' })).toBeUndefined();
    expect(read.number('years', { min: 0, max: 60 })).toBeUndefined();
    expect(errorsOf(read)).toEqual([
      { param: 'limit', message: 'limit must be between 1 and 100, got 500' },
      { param: 'page', message: 'page must be an integer at least 1, got "x"' },
      {
        param: 'location_distance',
        message: 'location_distance must be a number greater than 0 (kilometres), got -3',
      },
      { param: 'years', message: 'years must be a number at least 0 and at most 60, got "abc"' },
    ]);
  });

  it('reads a range with neither bound sent as no bounds and no error', () => {
    const read = reader({ experiences_duration_max: 3 });
    expect(readRange(reader({}), 'experiences_duration', 'years')).toEqual([undefined, undefined]);
    expect(readRange(read, 'experiences_duration', 'years')).toEqual([undefined, 3]);
    expect(errorsOf(read)).toEqual([]);
  });
});
