import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAUGHT_BY, checkIndependent, expectCaught, type RuleReport } from './check-it.ts';
import {
  DEFECTS,
  type DefectName,
  type IndependentServer,
  startIndependentServer,
} from './index.ts';

// The other kinds of proof-a.test.ts: filters, odd text, latency.
const KINDS = ['filters', 'odd-text'];
const names = (Object.keys(DEFECTS) as DefectName[]).filter((n) => KINDS.includes(DEFECTS[n].kind));

describe('a plain hrmock check of the independent server', () => {
  it('has at least two defects of each kind', () => {
    for (const kind of [...KINDS, 'latency'])
      expect(Object.values(DEFECTS).filter((d) => d.kind === kind).length).toBeGreaterThanOrEqual(
        2,
      );
  });

  it.each(names)('fails it with %s alone', (name) => expectCaught(name));
});

describe('latency', () => {
  // Slow enough to stand out from any answer of a loaded machine, few enough calls to stay quick.
  const SLOW_MS = 60;
  let slowGrading: IndependentServer;
  let slowScoring: IndependentServer;

  beforeAll(async () => {
    slowGrading = await startIndependentServer({ defects: ['slow-grading'], slowMs: SLOW_MS });
    slowScoring = await startIndependentServer({
      defects: ['slow-jobs-scoring'],
      slowMs: SLOW_MS,
    });
  });

  afterAll(async () => {
    await slowGrading.close();
    await slowScoring.close();
  });

  it('is reported per operation and fails nothing without --max-latency', async () => {
    const { code, report, failedIds } = await checkIndependent(slowGrading);
    const row = report.coverage.operations.find(
      (o: { operationId: string }) => o.operationId === 'gradeProfiles',
    );
    expect(failedIds).toEqual([]);
    expect(row.latency.p50Ms).toBeGreaterThanOrEqual(SLOW_MS);
    expect(row.latency.p95Ms).toBeGreaterThanOrEqual(row.latency.p50Ms);
    expect(code).toBe(0);
  });

  // LATENCY times the answers of the rules run with it: one that calls the slow operation will do.
  it.each([
    ['slow-grading', 'GET /profiles/grading', 'GRD-DEFAULT'],
    ['slow-jobs-scoring', 'GET /jobs/scoring', 'DEFAULTS'],
  ] as const)(
    'fails LATENCY with %s alone under --max-latency, naming %s',
    async (name, op, rule) => {
      const server = name === 'slow-grading' ? slowGrading : slowScoring;
      const narrowed = ['--rule', rule, '--rule', 'LATENCY'];
      const { code, failed } = await checkIndependent(server, ['--max-latency', '40', ...narrowed]);
      const latency = failed.find((r) => r.id === CAUGHT_BY[name]) as RuleReport;
      const evidence = [latency.outcome.evidence, ...(latency.outcome.more ?? [])] as {
        request: string;
      }[];
      expect(evidence.map((e) => e.request).join('\n')).toContain(`${op} (`);
      expect(code).toBe(1);
    },
  );
});
