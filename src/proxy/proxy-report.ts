import { LIVE_RULES } from '../../contract/suite/live-rules.ts';
import { type ReporterName, render } from '../../contract/suite/reporters.ts';
import type { Report, RuleResult } from '../../contract/suite/run-suite.ts';
import type { UpstreamFailure } from './forward.ts';

/** One broken promise in live traffic, as the report and the live line show it. */
export type ProxyViolation = {
  rule: string;
  /** `client`: the request broke the contract (it was still forwarded); `server`: the answer. */
  side: 'client' | 'server';
  method: string;
  path: string;
  status: number;
  message: string;
  /** The request, parameters only (never a header, never a secret parameter). */
  request: string;
};

export type ProxyRuleCount = { id: string; title: string; checks: number; violations: number };

export type ProxyReport = {
  upstream: string;
  /** Exchanges forwarded with the upstream's answer. */
  exchanges: number;
  /** Exchanges of the six operations judged by the rules. */
  judged: number;
  /** Exchanges of the six operations not judged: a body over the limits or undecodable. */
  unjudged: number;
  /** Exchanges forwarded unjudged because more were waiting for the judge than it keeps. */
  notJudgedBehind: number;
  /** Every violation counted; `violations` keeps the first ones. */
  violationCount: number;
  violations: ProxyViolation[];
  /** Requests answered by the proxy's own 502 or 504 (not violations of the upstream's answers). */
  upstreamFailures: UpstreamFailure[];
  rules: ProxyRuleCount[];
};

export function reportOf(
  parts: Omit<ProxyReport, 'rules'> & {
    counts: Map<string, { checks: number; violations: number }>;
  },
): ProxyReport {
  const { counts, ...rest } = parts;
  const rules = LIVE_RULES.map(({ id, title }) => ({
    id,
    title,
    ...(counts.get(id) ?? { checks: 0, violations: 0 }),
  }));
  return { ...rest, rules };
}

/** The live line of one violation: operation, rule, what was expected and what came. */
export function violationLine(v: ProxyViolation): string {
  return `VIOLATION ${v.rule} (${v.side}) ${v.method} ${v.path} -> ${v.status}: ${v.message} [${v.request}]`;
}

/** The report as check's reporters show a run: one rule per line (pretty) or test case (JUnit). */
function asSuiteReport(report: ProxyReport): Report {
  const results: RuleResult[] = report.rules.map((rule) => {
    const first = report.violations.find((v) => v.rule === rule.id);
    const outcome: RuleResult['outcome'] =
      rule.violations > 0
        ? {
            status: 'fail',
            evidence: {
              request: first?.request ?? '(not kept)',
              expected: `no violation (${rule.violations} found; the first: ${first?.message ?? 'not kept'})`,
              got: `${first?.method ?? ''} ${first?.path ?? ''} -> ${first?.status ?? ''}`,
            },
          }
        : rule.checks > 0
          ? { status: 'pass', checks: rule.checks }
          : { status: 'skip', why: 'no exchange this rule applies to went through the proxy' };
    return { id: rule.id, title: rule.title, subject: 'server', outcome, ms: 0 };
  });
  const count = (status: string) => results.filter((r) => r.outcome.status === status).length;
  return {
    baseUrl: report.upstream,
    results,
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
    ms: 0,
  };
}

export function renderProxyReport(report: ProxyReport, reporter: ReporterName): string {
  if (reporter === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  const text = render(asSuiteReport(report), reporter, 'hrmock proxy');
  if (reporter !== 'pretty') return text;
  return `${text}${report.exchanges} exchanges forwarded, ${report.judged} judged, ${report.unjudged + report.notJudgedBehind} not judged (${report.notJudgedBehind} while the judge was behind), ${report.violationCount} violations, ${report.upstreamFailures.length} upstream failures\n`;
}
