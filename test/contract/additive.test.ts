import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../../contract/suite/additive.ts';
import { loadContract, loadHistory, type OpenApiDoc } from '../../contract/suite/openapi.ts';

const current = loadContract();
const history = loadHistory();
const [published] = history;
if (published === undefined) throw new Error('contract/history/ holds no contract');

type Doc = Record<string, any>;

/** A deep copy of the current contract with one deliberate break. */
function broken(change: (doc: Doc) => void): OpenApiDoc {
  const copy = structuredClone(current) as Doc;
  change(copy);
  return copy as OpenApiDoc;
}

describe('ADDITIVE: the current contract against contract/history/', () => {
  it('has at least one published contract to compare with', () => {
    expect(history.length).toBeGreaterThan(0);
  });

  it.each(history.map((h) => [h.name, h.doc] as const))(
    'keeps everything %s published',
    (_, doc) => {
      expect(breakingChanges(doc, current)).toEqual([]);
    },
  );

  const mutants: [string, (doc: Doc) => void, RegExp][] = [
    [
      'a removed property',
      (d) => delete d.components.schemas.Profile.properties.info,
      /property removed/,
    ],
    [
      'a parameter made required',
      (d) => (d.components.parameters.Page.required = true),
      /parameter newly required/,
    ],
    [
      'a type changed',
      (d) => (d.components.schemas.Meta.properties.total.type = 'string'),
      /type narrowed/,
    ],
    ['a removed path', (d) => delete d.paths['/jobs/scoring'], /path removed/],
    ['a removed operation', (d) => delete d.paths['/profiles/searching'].get, /operation removed/],
    [
      'a removed parameter',
      (d) => d.paths['/profiles/searching'].get.parameters.splice(1, 1),
      /parameter removed/,
    ],
    [
      'a removed response',
      (d) => delete d.paths['/jobs/grading'].get.responses['402'],
      /response removed/,
    ],
    [
      'a narrowed enum',
      (d) => (d.components.schemas.OrderBy.enum = ['desc']),
      /enum narrowed: "asc" removed/,
    ],
    [
      'a new required parameter',
      (d) =>
        d.paths['/jobs/searching'].get.parameters.push({
          name: 'team_key',
          in: 'query',
          required: true,
          schema: { type: 'string' },
        }),
      /new parameter is required/,
    ],
    [
      'a response field no longer required',
      (d) => (d.components.schemas.Meta.required = ['page', 'count', 'total']),
      /maxPage: property no longer always returned/,
    ],
    [
      'a tightened limit',
      (d) => (d.components.schemas.Limit.maximum = 50),
      /maximum tightened from 100 to 50/,
    ],
    [
      'a removed alternative',
      (d) =>
        (d.components.schemas.ProfilesGradingResponse.allOf[1].properties.data.properties.profiles.items.anyOf =
          [{ $ref: '#/components/schemas/Profile' }]),
      /alternative 1/,
    ],
  ];

  it.each(mutants)('reports %s', (_, change, expected) => {
    const breaks = breakingChanges(published.doc, broken(change));
    expect(breaks.map((b) => `${b.where}: ${b.what}`).join('\n')).toMatch(expected);
  });
});
