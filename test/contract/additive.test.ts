import { describe, expect, it } from 'vitest';
import { type Break, breakingChanges } from '../../contract/suite/breaking-changes.ts';
import { at } from '../../contract/suite/json-shape.ts';
import { loadContract, loadHistory } from '../../contract/suite/openapi.ts';
import { OPT_INS } from '../../contract/suite/opt-ins.ts';
import { listAt, objAt } from '../support/json-reads.ts';
import { CONTRACT_MUTANTS, mutated, withoutTooManyRequests } from './additive-mutants.ts';

const current = loadContract();
const history = loadHistory();
const [published] = history;
if (published === undefined) throw new Error('contract/history/ holds no contract');

const shown = (breaks: Break[]) => breaks.map((b) => `${b.where}: ${b.what}`).join('\n');
/** Where a break sits: request parameters and bodies, or responses. */
const sideOf = (b: Break) => (/ response \d{3}/.test(b.where) ? 'response' : 'request');

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

  const breaking = CONTRACT_MUTANTS.filter((m) => m.verdict !== 'compatible');
  const compatible = CONTRACT_MUTANTS.filter((m) => m.verdict === 'compatible');

  it.each(breaking.map((m) => [m.name, m] as const))('reports %s', (_, mutant) => {
    const breaks = breakingChanges(published.doc, mutated(mutant, current));
    expect(shown(breaks)).toMatch(mutant.verdict);
    if (mutant.only !== undefined) {
      expect(breaks.filter((b) => sideOf(b) !== mutant.only)).toEqual([]);
    }
  });

  it.each(compatible.map((m) => [m.name, m] as const))('accepts %s', (_, mutant) => {
    expect(breakingChanges(published.doc, mutated(mutant, current))).toEqual([]);
  });
});

describe('ADDITIVE: full objects that only return_profile / return_job opt into', () => {
  it('reports them when the opt-ins are not taken into account', () => {
    const breaks = breakingChanges(published.doc, current, []);
    expect(shown(breaks)).toMatch(/data\.profiles\[\] \(alternative 2\): type widened/);
    expect(shown(breaks)).toMatch(/data\.jobs\[\] \(alternative 2\): type widened/);
  });

  it('reports them when the opt-in parameter was already published', () => {
    const already = structuredClone(published.doc);
    listAt(already, 'paths', '/profiles/grading', 'get', 'parameters').push({
      name: 'return_profile',
      in: 'query',
      schema: { type: 'string' },
    });
    const breaks = breakingChanges(already, current);
    expect(shown(breaks)).toMatch(/data\.profiles\[\] \(alternative 2\): type widened/);
    expect(shown(breaks)).not.toMatch(/data\.jobs\[\]/);
  });

  it('names two opt-ins, one per grading operation', () => {
    expect(OPT_INS.map((o) => `${o.parameter} ${o.alternative}`)).toEqual([
      'return_profile #/components/schemas/Profile',
      'return_job #/components/schemas/Job',
    ]);
  });
});

describe('ADDITIVE: 429 on every operation (1.3.0)', () => {
  const before = withoutTooManyRequests(current);
  const operations = Object.values(current.paths).flatMap((item) =>
    Object.values(item).filter((o) => at(o, 'responses') !== undefined),
  );

  it('documents 429 with a required Retry-After on each of the twelve operations', () => {
    expect(operations).toHaveLength(12);
    for (const operation of operations)
      expect(at(operation, 'responses', '429', '$ref')).toBe(
        '#/components/responses/TooManyRequests',
      );
    const response = objAt(current, 'components', 'responses', 'TooManyRequests');
    expect(at(response, 'headers', 'Retry-After', 'required')).toBe(true);
  });

  it('finds adding it additive', () => {
    expect(breakingChanges(before, current)).toEqual([]);
  });

  it('reports taking it away again', () => {
    const breaks = breakingChanges(current, before);
    expect(breaks).toHaveLength(12);
    expect(new Set(breaks.map((b) => b.what))).toEqual(new Set(['response removed']));
  });
});
