import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../contract/suite/target.ts';
// The build's, made current by the project's global setup: its judge threads start without tsx.
import { startProxy } from '../../dist/src/api/start-proxy.js';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import type { ProxyReport } from '../../src/api/start-proxy.ts';
import { targetOf } from '../../src/hr/target.ts';
import { createApp } from '../../src/http/app.ts';
import { startServer } from '../../src/node/server.ts';
import { proxyVerdict, violationLine } from '../../src/proxy/proxy-report.ts';
import { MUTANTS, type Mutant } from '../mutants/mutants.ts';
import { startHrmockProcess } from '../support/hrmock-process.ts';
import {
  cleanTraffic,
  cleanTrafficParts,
  type Sent,
  send,
  wrongMethods,
} from '../support/live-traffic.ts';
import { tempDir } from '../support/temp-dir.ts';

/** The rule of the proxy that must report each mutant whose fault one or two exchanges show. */
const LIVE_RULE: Record<string, string> = {
  'error answers carry a code other than their status': 'ENV',
  'a list answer leaves out its meta': 'ENV',
  'a method it does not serve is answered 200': 'ENV',
  'a 405 does not list GET in Allow': 'ENV',
  'grading defaults to full objects': 'GRD-DEFAULT',
  'minimal items carry a field beyond the minimal set': 'GRD-DEFAULT',
  'full items disagree with their minimal twins': 'GRD-FULL',
  'return_profile=true is ignored': 'GRD-FULL',
  'asking for full items changes the scores': 'GRD-FULL',
  'asking for full items drops the last one': 'GRD-FULL',
  'asking for full items answers null for a gradable item': 'GRD-FULL',
  'asking for full items changes the errors': 'GRD-FULL',
  'grading answers in key order, not request order': 'GRD-ALIGN',
  'an item that cannot be graded gets a score as well as its error': 'GRD-ALIGN',
  'grading answers one error fewer than items': 'GRD-ALIGN',
  'a minimal field is renamed': 'OLD-CLIENT',
  'POST ignores its body': 'POST-EQ',
  'POST ignores page in its body': 'POST-EQ',
  'POST refuses a list sent as a JSON-encoded string': 'POST-EQ',
  'POST answers 200 with a body that is not JSON': 'POST-EQ',
  'GET answers 200 with a body that is not JSON': 'POST-EQ',
  // Its twin answers differ: the GET and the POST of page 2 are two identical calls.
  'meta.total differs between two identical calls': 'POST-EQ',
  'GET is removed from searching and scoring': 'GET-KEPT',
  // The long POST's answer lacks its list, which the contract requires.
  'a long POST is answered without its list': 'ENV',
  'meta.count is one off': 'PAGE',
  'maxPage is rounded down': 'PAGE',
  'an empty result has maxPage 0': 'PAGE',
  'a page past the last echoes the page asked for, above maxPage': 'PAGE',
  'the last page leaves out its last item': 'PAGE',
  'a page past the last repeats the last page': 'PAGE',
  'a page holds one item more than limit': 'PAGE',
  'order_by is ignored': 'ORDER',
  'sort_by=scoring is ignored': 'ORDER',
  'order_by=asc is ignored when sorting by score': 'ORDER',
  // The swapped ranking is out of the order sort_by=scoring asked for.
  'the score ranking swaps its first two items on every other call': 'ORDER',
  'predictions are off by one': 'PRED',
  'meta.count of a scoring answer is one more than its predictions': 'PRED',
  'prediction pairs do not sum to 1': 'PRED',
  'prediction pairs carry a third number': 'PRED',
  'predictions are strings': 'PRED',
  'predictions are percentages': 'PRED',
  'the first share of each prediction is one less than it should be': 'PRED',
  'score_threshold is ignored': 'PRED',
  'a threshold adds to the total instead of dropping items': 'PRED',
  'scores drift between calls': 'STABLE',
  'bad input gets a 500': 'NO-5XX',
  'bad input is answered 200': 'ENV',
  'a 400 carries no message': 'ENV',
  'a 400 says code 200 in its body': 'ENV',
  'a 400 answers JSON null': 'ENV',
};

/**
 * Of LIVE_RULE, the mutants whose fault only the answer to a client's mistake shows (a method the
 * path lacks): their traffic adds `wrongMethods`, which the proxy also reports as CLIENT.
 */
const AFTER_A_MISTAKE = new Set([
  'a method it does not serve is answered 200',
  'a 405 does not list GET in Allow',
]);

/** The mutants live traffic cannot show, and why (docs/proxy.md says the same). */
const NOT_LIVE: Record<string, string> = {
  'a 404 answers text/html': 'its fault is on paths outside the six operations, forwarded unjudged',
  'a 404 answers HTML labelled as JSON':
    'its fault is on paths outside the six operations, forwarded unjudged',
  'bodies over 16 KB are refused':
    'the live rules judge no body size (a 413 is documented on every POST); check’s POST-LONG sends the 32 KB the contract promises',
  'pages overlap by one item': 'pages are compared by check, which asks for all of them',
  'errors name another parameter than the invalid one':
    'which parameter is invalid needs check’s crafted requests',
  'the contract drops a property of Profile': 'a fault of the contract documents, not of traffic',
  'the contract lets Label.stage answer "maybe"':
    'a fault of the contract documents, not of traffic',
  'the contract makes page required': 'a fault of the contract documents, not of traffic',
  'pages /jobs/searching by 20 when no limit is sent':
    'a default is judged by comparing the answers with and without it, which check’s DEFAULTS asks for',
  'answers 404, not 405, to a method it does not serve':
    'which status a wrong method gets is judged by check’s ROUTES, which sends every one',
  'accepts created_at_min after created_at_max and filters by neither':
    'a request the contract refuses is check’s CROSS-PARAM to send; live traffic rarely has one',
  'accepts tags_included and ignores it':
    'whether a filter filters needs the item it was taken from, which check’s FILTERS picks',
  'answers 500 to a query value with a character outside ASCII':
    'only a request with such text shows it: check’s ODD-TEXT sends some, the traffic here none (a live 500 is NO-5XX’s)',
  'answers 500 to a JSON body over 1 MB':
    'only a body over 1 MB shows it: check’s REFUSALS sends one, the traffic here none (a live 500 is NO-5XX’s)',
};

const data = buildFixtures({ profiles: 400, jobs: 120 });

/** Runs `traffic` through `hrmock proxy` in front of `upstream`; its exit, report and answers. */
async function throughProxy(upstream: string, traffic: Sent[]) {
  const dir = await tempDir('proxy-report');
  const output = join(dir, 'report.json');
  const proxy = await startHrmockProcess([
    'proxy',
    '--upstream',
    upstream,
    '--port',
    '0',
    '--reporter',
    'json',
    '--output',
    output,
  ]);
  const answers = [];
  for (const request of traffic) answers.push(await send(proxy.url, request));
  const stopped = await proxy.stop();
  const report = JSON.parse(await readFile(output, 'utf8')) as ProxyReport;
  return { ...stopped, report, answers };
}

/**
 * The same in process (`startProxy`), for the many runs where the process boundary is not what
 * is tested: the report, its exit status and the live lines the CLI prints, as `proxy` makes them.
 * The traffic goes part by part, and stops once the report so far holds `rule` from the server
 * side: the rest could only add to what is already shown.
 */
async function inProcess(upstream: string, parts: Sent[][], rule: string) {
  const lines: string[] = [];
  const proxy = await startProxy({ upstream, onViolation: (v) => lines.push(violationLine(v)) });
  for (const part of parts) {
    for (const request of part) await send(proxy.url, request);
    const soFar = await proxy.report();
    if (soFar.violations.some((v) => v.side === 'server' && v.rule === rule)) break;
  }
  const report = await proxy.close();
  return { code: proxyVerdict(report).status, report, stderr: lines.join('\n') };
}

describe('hrmock proxy judging live traffic', () => {
  it('forwards byte for byte and reports nothing in front of the mock, exiting 0', async () => {
    const mock = await startHrmockProcess([
      'serve',
      '--port',
      '0',
      '--quiet',
      '--profiles',
      '400',
      '--jobs',
      '120',
    ]);
    const served = (await (await fetch(`${mock.url}/_mock/target`)).json()) as { data: unknown };
    const target = parseTarget(served.data, null, 'the mock');
    const { code, report, answers, stderr } = await throughProxy(mock.url, cleanTraffic(target));
    const direct: Awaited<ReturnType<typeof send>>[] = [];
    for (const request of cleanTraffic(target)) direct.push(await send(mock.url, request));
    expect(report.violations).toEqual([]);
    expect(stderr).not.toMatch(/VIOLATION/);
    expect(code).toBe(0);
    expect(report.judged).toBe(cleanTraffic(target).length);
    expect(answers.map((a) => a.status)).toEqual(direct.map((a) => a.status));
    const differing = answers.filter((answer, i) => !answer.body.equals(direct[i]?.body as Buffer));
    expect(differing).toEqual([]);
    // Every rule looked at something: a clean run is a run that could have failed.
    expect(report.rules.filter((r) => r.checks === 0).map((r) => r.id)).toEqual([]);
  }, 120_000);

  it('reports a wrong method as the client’s mistake only, in front of the mock', async () => {
    const app = createApp({ data, log: false });
    const target = parseTarget(targetOf(app.state.store), null, 'the mock');
    const upstream = await startServer(app);
    try {
      const { code, report } = await throughProxy(upstream.url, wrongMethods(target));
      const found = report.violations.map((v) => `${v.rule} (${v.side}) ${v.method}`);
      expect(found).toEqual(['CLIENT (client) POST', 'CLIENT (client) DELETE']);
      expect(report.rules.find((r) => r.id === 'ENV')?.checks).toBeGreaterThan(0);
      expect(code).toBe(1);
    } finally {
      await upstream.close();
    }
  }, 120_000);

  it('decides for every mutant whether live traffic shows it', () => {
    const decided = new Set([...Object.keys(LIVE_RULE), ...Object.keys(NOT_LIVE)]);
    expect(MUTANTS.map((m) => m.name).filter((name) => !decided.has(name))).toEqual([]);
    // A name in the lists that no mutant has any more is a stale entry.
    const names = new Set(MUTANTS.map((m) => m.name));
    expect([...decided].filter((name) => !names.has(name))).toEqual([]);
    expect([...AFTER_A_MISTAKE].filter((name) => LIVE_RULE[name] === undefined)).toEqual([]);
  });

  it.each(MUTANTS.filter((m) => LIVE_RULE[m.name] !== undefined).map((m) => [m.name, m] as const))(
    'reports %s and exits 1',
    async (_, mutant: Mutant) => {
      const app = createApp({ data, log: false });
      const target = parseTarget(targetOf(app.state.store), null, 'the mock');
      const own = app.fetch;
      const upstream = await startServer(
        app,
        mutant.wrap
          ? { fetch: mutant.wrap(async (request) => own(request)) as typeof app.fetch }
          : {},
      );
      const parts = [
        ...(AFTER_A_MISTAKE.has(mutant.name) ? [wrongMethods(target)] : []),
        ...cleanTrafficParts(target),
      ];
      const rule = LIVE_RULE[mutant.name] as string;
      try {
        const { code, report, stderr } = await inProcess(upstream.url, parts, rule);
        const server = report.violations.filter((v) => v.side === 'server');
        expect(server.map((v) => v.rule)).toContain(rule);
        expect(stderr).toMatch(new RegExp(`VIOLATION ${rule} \\(server\\) `));
        expect(code).toBe(1);
      } finally {
        await upstream.close();
      }
    },
    120_000,
  );
});
