import { describe, expect, it, onTestFinished } from 'vitest';
import { toQuery } from '../../contract/suite/client.ts';
import { GRADING, pathOf } from '../../contract/suite/operations.ts';
import { parseTarget } from '../../contract/suite/target.ts';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { startProxy } from '../../src/api/start-proxy.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { startServer } from '../../src/node/server.ts';
import { MUTANTS } from '../mutants/mutants.ts';

const data = buildFixtures({ profiles: 60, jobs: 20 });
/** The mock (or a mutant of it) on loopback with the proxy in front, both closed after the test. */
async function proxied(mutant?: string) {
  const app = createApp({ data, log: false });
  const wrap = MUTANTS.find((m) => m.name === mutant)?.wrap;
  if (mutant !== undefined && wrap === undefined) throw new Error(`no mutant "${mutant}"`);
  const own = app.fetch;
  const upstream = await startServer(
    app,
    wrap === undefined ? {} : { fetch: wrap(async (request) => own(request)) as typeof app.fetch },
  );
  const proxy = await startProxy({ upstream: upstream.url });
  onTestFinished(async () => {
    await proxy.close();
    await upstream.close();
  });
  return proxy;
}

const target = parseTarget(targetOf(createApp({ data, log: false }).state.store), null, 'the mock');
const [op] = GRADING;
/** A grading request of the profiles that the contract allows, without the full flag. */
const grading = `${op === undefined ? '' : pathOf(op, target)}?${toQuery(op?.params(target) ?? {})}`;

async function send(url: string, times: number): Promise<Buffer[]> {
  const bodies: Buffer[] = [];
  for (let k = 0; k < times; k++) {
    const answer = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    bodies.push(Buffer.from(await answer.arrayBuffer()));
  }
  return bodies;
}

const rule = (
  report: Awaited<ReturnType<Awaited<ReturnType<typeof proxied>>['report']>>,
  id: string,
) => report.rules.find((r) => r.id === id) as { checks: number; violations: number };

describe('hrmock proxy judging an exchange it has seen before', () => {
  it('reports each repeat of a violating exchange, as it reported the first', async () => {
    const proxy = await proxied('grading defaults to full objects');
    const bodies = await send(`${proxy.url}${grading}`, 4);
    // The same bytes each time: the three repeats go to the judge by fingerprint alone.
    expect(new Set(bodies.map((b) => b.toString('base64'))).size).toBe(1);
    const report = await proxy.report();
    expect(report.exchanges).toBe(4);
    expect(report.judged).toBe(4);
    expect(report.violations.filter((v) => v.rule === 'GRD-DEFAULT')).toHaveLength(4);
    expect(rule(report, 'GRD-DEFAULT').violations).toBe(4);
  });

  it('counts the checks of every repeat and compares it with the answer before (STABLE)', async () => {
    const proxy = await proxied();
    await send(`${proxy.url}${grading}`, 5);
    const report = await proxy.report();
    expect(report.violations).toEqual([]);
    expect(report.judged).toBe(5);
    const once = await proxied();
    await send(`${once.url}${grading}`, 1);
    const first = await once.report();
    // Every one-exchange rule checked each repeat as much as the first exchange.
    for (const id of ['ENV', 'GRD-DEFAULT', 'GRD-ALIGN'])
      expect(rule(report, id).checks).toBe(5 * rule(first, id).checks);
    // Four repeats, each compared with the one before.
    expect(rule(report, 'STABLE').checks).toBe(4);
    expect(rule(first, 'STABLE').checks).toBe(0);
  });

  it('still compares a repeat with its twin of the other method (POST-EQ) and flag (GRD-FULL)', async () => {
    const proxy = await proxied('full items disagree with their minimal twins');
    await send(`${proxy.url}${grading}`, 2);
    await send(
      `${proxy.url}${grading}&${op?.list === 'profiles' ? 'return_profile' : 'return_job'}=true`,
      2,
    );
    await send(`${proxy.url}${grading}`, 1);
    const report = await proxy.report();
    expect(rule(report, 'GRD-FULL').violations).toBeGreaterThanOrEqual(2);
  });
});
