import { htmlReport } from './html-report.ts';
import { markdownReport } from './markdown-report.ts';
import { coverageLines, coverageProperties, shortBy } from './report-coverage.ts';
import {
  bySubject,
  DOCUMENTS_HEADING,
  evidenceOf,
  type ReportSection,
  summary,
} from './report-text.ts';
import type { Report, RuleResult } from './run-suite.ts';

export { DOCUMENTS_HEADING, evidenceOf, type ReportSection, summary };

export type ReporterName = 'pretty' | 'junit' | 'json' | 'html' | 'markdown';
export const REPORTERS: ReporterName[] = ['pretty', 'junit', 'json', 'html', 'markdown'];

/**
 * `name` heads the report: the command that made it (`hrmock proxy` shows the same rules).
 * `sections` are the command's own tables, which the HTML and Markdown reports add.
 */
export function render(
  report: Report,
  reporter: ReporterName,
  name = 'hrmock check',
  sections: ReportSection[] = [],
): string {
  if (report.error !== undefined && reporter === 'pretty')
    return `${name} ${report.baseUrl}\n  could not run: ${report.error}\n`;
  if (reporter === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (reporter === 'junit') return junit(report, name);
  if (reporter === 'html') return htmlReport(report, name, sections);
  if (reporter === 'markdown') return markdownReport(report, name, sections);
  return pretty(report, name);
}

function pretty(report: Report, name: string): string {
  const width = Math.max(...report.results.map((r) => r.id.length));
  const lines = [`${name} ${report.baseUrl}`];
  const line = ({ id, title, outcome }: RuleResult) => {
    const name = id.padEnd(width);
    if (outcome.status === 'pass')
      lines.push(`  pass  ${name}  ${title} (${outcome.checks} checks)`);
    else if (outcome.status === 'skip')
      lines.push(`  skip  ${name}  ${title}\n        why:      ${outcome.why}`);
    else {
      lines.push(`  FAIL  ${name}  ${title}`);
      const all = evidenceOf(outcome);
      all.forEach(({ request, expected, got, reproduce }, i) => {
        if (all.length > 1) lines.push(`        [${i + 1} of ${all.length}]`);
        lines.push(
          `        request:  ${request}`,
          `        expected: ${expected}`,
          `        got:      ${got}`,
          `        reproduce: ${reproduce}`,
        );
      });
    }
  };
  const [server, documents] = bySubject(report);
  server.forEach(line);
  if (documents.length > 0) {
    lines.push(DOCUMENTS_HEADING);
    documents.forEach(line);
  }
  if (report.coverage !== undefined) lines.push(...coverageLines(report.coverage));
  lines.push(summary(report));
  return `${lines.join('\n')}\n`;
}

/** Escapes text for XML, dropping the characters XML 1.0 cannot hold. */
function xml(text: string): string {
  const allowed = (code: number) =>
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code > 0xffff;
  return [...text]
    .filter((char) => allowed(char.codePointAt(0) ?? 0))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function junit(report: Report, name: string): string {
  if (report.error !== undefined) {
    // One case in error, so that a CI dashboard shows the run as broken, not as empty.
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="${xml(name)}" tests="1" failures="0" errors="1" skipped="0" time="0">`,
      `  <testsuite name="${xml(`contract rules at ${report.baseUrl}`)}" tests="1" failures="0" errors="1" skipped="0" time="0">`,
      `    <testcase classname="hrmock.contract" name="${xml(name)} could run" time="0">`,
      `      <error message="${xml(report.error)}" type="CannotRun">${xml(report.error)}</error>`,
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const testcase = ({ id, title, subject, outcome, ms }: RuleResult) => {
    const open = `    <testcase classname="hrmock.${subject === 'server' ? 'contract' : 'documents'}" name="${xml(`${id}: ${title}`)}" time="${seconds(ms)}"`;
    if (outcome.status === 'pass') return `${open}/>`;
    if (outcome.status === 'skip')
      return `${open}>\n      <skipped message="${xml(outcome.why)}"/>\n    </testcase>`;
    const text = evidenceOf(outcome)
      .map(
        ({ request, expected, got, reproduce }) =>
          `request:  ${request}\nexpected: ${expected}\ngot:      ${got}\nreproduce: ${reproduce}`,
      )
      .join('\n\n');
    return `${open}>\n      <failure message="${xml(`expected ${outcome.evidence.expected}`)}" type="${xml(id)}">${xml(text)}</failure>\n    </testcase>`;
  };
  const coverage = report.coverage;
  const gate: RuleResult[] =
    coverage?.min === undefined
      ? []
      : [
          {
            id: 'COVERAGE',
            title: `at least ${coverage.min}% of the operation x documented status pairs exercised`,
            subject: 'server',
            ms: 0,
            outcome: coverage.met
              ? { status: 'pass', checks: coverage.counted }
              : {
                  status: 'fail',
                  evidence: {
                    request: 'every request of the run',
                    expected: `coverage of at least ${coverage.min}%`,
                    got: `${coverage.percent}% (${coverage.exercised} of ${coverage.counted} pairs)${shortBy(coverage)}`,
                    reproduce: report.rerun ?? 'npx --no-install hrmock check',
                  },
                },
          },
        ];
  const properties = [
    ...(coverage === undefined ? [] : coverageProperties(coverage)),
    ...(report.fuzz === undefined
      ? []
      : [
          ['fuzz.runs', String(report.fuzz.runs)],
          ['fuzz.seed', String(report.fuzz.seed)],
        ]),
  ].map(
    ([name, value]) =>
      `      <property name="${xml(name as string)}" value="${xml(value as string)}"/>`,
  );
  const suite = (name: string, results: RuleResult[], props: string[] = []) => {
    const failures = results.filter((r) => r.outcome.status === 'fail').length;
    const skipped = results.filter((r) => r.outcome.status === 'skip').length;
    const ms = results.reduce((sum, r) => sum + r.ms, 0);
    return [
      `  <testsuite name="${xml(name)}" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${seconds(ms)}">`,
      ...(props.length > 0 ? ['    <properties>', ...props, '    </properties>'] : []),
      ...results.map(testcase),
      '  </testsuite>',
    ];
  };
  const [server, documents] = bySubject(report);
  const failed = report.failed + (coverage?.met === false ? 1 : 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" tests="${report.results.length + gate.length}" failures="${failed}" skipped="${report.skipped}" time="${seconds(report.ms)}">`,
    ...suite(`contract rules at ${report.baseUrl}`, [...server, ...gate], properties),
    ...(documents.length > 0 ? suite(DOCUMENTS_HEADING.replace(/:$/, ''), documents) : []),
    '</testsuites>',
    '',
  ].join('\n');
}
