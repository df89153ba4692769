import { LIVE_RULES } from '../../contract/suite/live-rules.ts';
import { type ReporterName, type ReportSection, render } from '../../contract/suite/reporters.ts';
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
  /**
   * A curl command sending the request again to the upstream: secret headers as environment
   * references (`"X-API-KEY: $X_API_KEY"`), secret parameters `[redacted]`, a body over 4 KB
   * left to a file (`--data-binary @body.json`, said in a comment). See docs/proxy.md.
   */
  reproduce: string;
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
  /** Requests answered by the proxy's own 502 or 504; `upstreamFailures` keeps the first 100. */
  upstreamFailureCount: number;
  /** Requests answered by the proxy's own 502 or 504 (not violations of the upstream's answers). */
  upstreamFailures: UpstreamFailure[];
  rules: ProxyRuleCount[];
  /** Milliseconds from the proxy's start to this report (its close, for the final one). */
  ms: number;
};

/** A report from its counts; `ms` 0 and every failure kept unless said otherwise. */
export function reportOf(
  parts: Omit<ProxyReport, 'rules' | 'ms' | 'upstreamFailureCount'> & {
    counts: Map<string, { checks: number; violations: number }>;
    ms?: number;
    upstreamFailureCount?: number;
  },
): ProxyReport {
  const { counts, ms = 0, upstreamFailureCount = parts.upstreamFailures.length, ...rest } = parts;
  const rules = LIVE_RULES.map(({ id, title }) => ({
    id,
    title,
    ...(counts.get(id) ?? { checks: 0, violations: 0 }),
  }));
  return { ...rest, upstreamFailureCount, rules, ms };
}

/** The live line of one violation: operation, rule, what was expected and what came. */
export function violationLine(v: ProxyViolation): string {
  return `VIOLATION ${v.rule} (${v.side}) ${v.method} ${v.path} -> ${v.status}: ${v.message} [${v.request}]`;
}

/**
 * What a proxy run comes to, as an exit status (docs/cli.md, "Exit codes") and, when it is not
 * the plain count of violations, a note: 1 any violation; 2 (could not judge) when requests came
 * but every one failed upstream (the proxy's own 502 or 504); 0 otherwise, even with no request.
 */
export function proxyVerdict(report: ProxyReport): { status: 0 | 1 | 2; note?: string } {
  if (report.violationCount > 0) return { status: 1 };
  const failed = report.upstreamFailureCount;
  const first = report.upstreamFailures[0];
  if (report.exchanges === 0 && failed > 0 && first !== undefined)
    return {
      status: 2,
      note: `could not judge: ${failed === 1 ? 'the one request' : `all ${failed} requests`} failed upstream (first: ${first.method} ${first.path} -> ${first.status}: ${first.reason})`,
    };
  if (report.exchanges === 0) return { status: 0, note: 'no exchange went through the proxy' };
  return { status: 0 };
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
              reproduce: first?.reproduce ?? '(not kept: the report keeps the first violations)',
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
    ms: report.ms,
  };
}

export function renderProxyReport(report: ProxyReport, reporter: ReporterName): string {
  if (reporter === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  // HTML and Markdown add the exchange counts and every kept violation as tables of their own.
  const sections: ReportSection[] = [
    {
      heading: 'Exchanges',
      columns: [
        'forwarded',
        'judged',
        'not judged',
        'while the judge was behind',
        'violations',
        'upstream failures',
      ],
      rows: [
        [
          report.exchanges,
          report.judged,
          report.unjudged + report.notJudgedBehind,
          report.notJudgedBehind,
          report.violationCount,
          report.upstreamFailureCount,
        ].map(String),
      ],
    },
    {
      heading: `Violations kept (${report.violations.length} of ${report.violationCount})`,
      columns: ['rule', 'side', 'request', 'status', 'message', 'parameters', 'reproduce'],
      rows: report.violations.map((v) => [
        v.rule,
        v.side,
        `${v.method} ${v.path}`,
        String(v.status),
        v.message,
        v.request,
        v.reproduce,
      ]),
    },
    {
      heading: `Upstream failures (${report.upstreamFailures.length} of ${report.upstreamFailureCount})`,
      columns: ['request', 'status', 'reason'],
      rows: report.upstreamFailures.map((f) => [
        `${f.method} ${f.path}`,
        String(f.status),
        f.reason,
      ]),
    },
  ];
  const text = render(asSuiteReport(report), reporter, 'hrmock proxy', sections);
  if (reporter !== 'pretty') return text;
  return `${text}${report.exchanges} exchanges forwarded, ${report.judged} judged, ${report.unjudged + report.notJudgedBehind} not judged (${report.notJudgedBehind} while the judge was behind), ${report.violationCount} violations, ${report.upstreamFailureCount} upstream failures\n`;
}
