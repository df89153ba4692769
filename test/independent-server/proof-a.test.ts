import { describe, expect, it } from 'vitest';
import { CAUGHT_BY, checkIndependent, expectCaught } from './check-it.ts';
import { DEFECTS, type DefectName, startIndependentServer } from './index.ts';

// hrmock check judges a server it has never seen: each defect alone fails the rule meant for its
// kind (proof-b.test.ts: the other kinds), and one plain check fails them all together.
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

  it('fails every rule meant for a defect in one plain run, with every defect on', async () => {
    const all = (Object.keys(DEFECTS) as DefectName[]).filter((n) => DEFECTS[n].kind !== 'latency');
    const server = await startIndependentServer({ defects: all });
    try {
      const { code, failedIds } = await checkIndependent(server);
      const meant = [...new Set(all.map((n) => CAUGHT_BY[n]))].sort();
      expect(meant.filter((id) => !failedIds.includes(id))).toEqual([]);
      expect(code).toBe(1);
    } finally {
      await server.close();
    }
  });
});
