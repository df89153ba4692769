import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { breakingChanges } from '../../contract/suite/breaking-changes.ts';
import { loadContract, loadHistory } from '../../contract/suite/openapi.ts';
import {
  backwardCompatibility,
  javaAvailable,
  type Pair,
  type Verdict,
} from '../support/specmatic.ts';
import { CONTRACT_MUTANTS, mutated, withoutTooManyRequests } from './additive-mutants.ts';

/**
 * Where Specmatic 2.55.1 and ADDITIVE disagree on a mutant, and why (docs/contract-rules.md lists the same).
 * Each entry must still disagree: the list stays true.
 */
const SPECMATIC_DISAGREES: Record<string, string> = {
  'a parameter removed':
    'Specmatic checks that an old request is still accepted, and an unknown query parameter is; ADDITIVE holds that the contract removes nothing',
  'a bound tightened inside a JSON-encoded parameter (location_geopoint lat)':
    'Specmatic does not read contentSchema: a JSON-encoded query value is a plain string to it',
  'a step set on a request parameter (limit a multiple of 10)':
    'Specmatic does not compare multipleOf or uniqueItems',
  'distinct items required in a JSON-encoded list (source_keys uniqueItems)':
    'Specmatic does not compare multipleOf or uniqueItems',
  'a parameter serialized differently (source_keys not exploded)':
    'Specmatic does not compare style/explode',
  "a score pair's maxItems loosened (3)":
    'Specmatic does not compare bounds (minimum, maxItems, ...) or patterns in responses',
  'a response minimum loosened (Meta.page from 0)':
    'Specmatic does not compare bounds (minimum, maxItems, ...) or patterns in responses',
  'a pattern dropped on a key':
    'Specmatic does not compare bounds (minimum, maxItems, ...) or patterns in responses',
  'a closed object opened (ProfileMinimal)':
    'Specmatic does not hold a response to additionalProperties: false',
  'a property added to a closed object (ProfileMinimal.archived_at)':
    'Specmatic does not hold a response to additionalProperties: false',
  'grading offering full profiles only, the minimal alternative gone':
    'Specmatic does not hold a response to additionalProperties: false (a full profile carries every minimal field)',
};

const contractDir = new URL('../../contract/', import.meta.url);
const currentText = readFileSync(new URL('openapi.yaml', contractDir), 'utf8');
const historyFiles = readdirSync(new URL('history/', contractDir))
  .filter((name) => name.endsWith('.yaml'))
  .sort();
const [firstPublished] = loadHistory();
if (firstPublished === undefined) throw new Error('contract/history/ holds no contract');
const firstPublishedText = readFileSync(
  new URL(`history/${firstPublished.name}`, contractDir),
  'utf8',
);
const current = loadContract();
const slug = (i: number) => `mutant-${String(i + 1).padStart(2, '0')}`;

// Each history file as written (its YAML is part of what is checked); each mutant as JSON, which
// every reader reads alike.
const pairs: Pair[] = [
  ...historyFiles.map((name) => ({
    name: `history-${name}`,
    older: readFileSync(new URL(`history/${name}`, contractDir), 'utf8'),
    newer: currentText,
    extension: 'yaml' as const,
  })),
  // 1.3.0's one change, 429 on every operation, in both directions.
  {
    name: 'added-429',
    older: JSON.stringify(withoutTooManyRequests(current), null, 1),
    newer: JSON.stringify(current, null, 1),
    extension: 'json' as const,
  },
  {
    name: 'removed-429',
    older: JSON.stringify(current, null, 1),
    newer: JSON.stringify(withoutTooManyRequests(current), null, 1),
    extension: 'json' as const,
  },
  ...CONTRACT_MUTANTS.map((mutant, i) => ({
    name: slug(i),
    older: firstPublishedText,
    newer: JSON.stringify(mutated(mutant, current), null, 1),
    extension: 'json' as const,
  })),
];

describe.skipIf(!javaAvailable())("Specmatic's backward-compatibility-check", () => {
  let verdicts: Map<string, Verdict>;

  beforeAll(async () => {
    const started = performance.now();
    verdicts = await backwardCompatibility(pairs);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `Specmatic backward-compatibility-check: ${pairs.length} pairs in ${seconds} s\n`,
    );
  }, 600_000);

  it('gives a verdict on every pair', () => {
    expect(pairs.filter((p) => !verdicts.has(p.name)).map((p) => p.name)).toEqual([]);
  });

  it.each(historyFiles)(
    'finds contract/openapi.yaml backward compatible with history/%s',
    (name) => {
      const verdict = verdicts.get(`history-${name}`);
      expect(verdict?.compatible, verdict?.report).toBe(true);
    },
  );

  it('agrees with ADDITIVE that documenting 429 on every operation is additive', () => {
    const additive = breakingChanges(withoutTooManyRequests(current), current).length === 0;
    const verdict = verdicts.get('added-429');
    expect(additive).toBe(true);
    expect(verdict?.compatible, verdict?.report).toBe(true);
  });

  it('agrees with ADDITIVE that taking 429 away again breaks', () => {
    const additive = breakingChanges(current, withoutTooManyRequests(current)).length === 0;
    const verdict = verdicts.get('removed-429');
    expect(additive).toBe(false);
    expect(verdict?.compatible, verdict?.report).toBe(false);
  });

  it.each(CONTRACT_MUTANTS.map((m, i) => [m.name, m, i] as const))(
    'agrees with ADDITIVE on %s, or disagrees for a reason docs/contract-rules.md gives',
    (name, mutant, i) => {
      const additive = breakingChanges(firstPublished.doc, mutated(mutant, current)).length === 0;
      const verdict = verdicts.get(slug(i));
      const expected = name in SPECMATIC_DISAGREES ? !additive : additive;
      expect(verdict?.compatible, verdict?.report || SPECMATIC_DISAGREES[name]).toBe(expected);
    },
  );

  it('lists only mutants that exist', () => {
    const names = CONTRACT_MUTANTS.map((m) => m.name);
    expect(Object.keys(SPECMATIC_DISAGREES).filter((n) => !names.includes(n))).toEqual([]);
  });
});
