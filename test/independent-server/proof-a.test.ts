import { describe, expect, it } from 'vitest';
import { expectCaught } from './check-it.ts';
import { DEFECTS, type DefectName } from './index.ts';

// hrmock check judges a server it has never seen: each defect alone fails a plain check, and
// the rule meant for its kind is among the failures. (proof-b.test.ts: the other kinds.)
const KINDS = ['defaults', 'paths', 'back-compat', 'cross-parameter'];

describe('a plain hrmock check of the independent server', () => {
  const names = (Object.keys(DEFECTS) as DefectName[]).filter((n) =>
    KINDS.includes(DEFECTS[n].kind),
  );

  it('has at least two defects of each kind', () => {
    for (const kind of KINDS)
      expect(names.filter((n) => DEFECTS[n].kind === kind).length).toBeGreaterThanOrEqual(2);
  });

  it.each(names)('fails it with %s alone', (name) => expectCaught(name));
});
