import type { Report } from './run-suite.ts';

export type ReporterName = 'pretty' | 'junit' | 'json';
export const REPORTERS: ReporterName[] = ['pretty', 'junit', 'json'];

export function render(report: Report, reporter: ReporterName): string {
  if (report.error !== undefined && reporter === 'pretty')
    return `hrmock check ${report.baseUrl}\n  could not run: ${report.error}\n`;
  if (reporter === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (reporter === 'junit') return junit(report);
  return pretty(report);
}

export function summary(report: Report): string {
  if (report.error !== undefined) return `could not run: ${report.error}`;
  const total = report.results.length;
  return `${total} rules: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped in ${(report.ms / 1000).toFixed(1)} s`;
}

function pretty(report: Report): string {
  const width = Math.max(...report.results.map((r) => r.id.length));
  const lines = [`hrmock check ${report.baseUrl}`];
  for (const { id, title, outcome } of report.results) {
    const name = id.padEnd(width);
    if (outcome.status === 'pass')
      lines.push(`  pass  ${name}  ${title} (${outcome.checks} checks)`);
    else if (outcome.status === 'skip')
      lines.push(`  skip  ${name}  ${title}\n        why:      ${outcome.why}`);
    else {
      const { request, expected, got } = outcome.evidence;
      lines.push(
        `  FAIL  ${name}  ${title}`,
        `        request:  ${request}`,
        `        expected: ${expected}`,
        `        got:      ${got}`,
      );
    }
  }
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

function junit(report: Report): string {
  if (report.error !== undefined) {
    // One case in error, so that a CI dashboard shows the run as broken, not as empty.
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="hrmock check" tests="1" failures="0" errors="1" skipped="0" time="0">',
      `  <testsuite name="${xml(`contract rules at ${report.baseUrl}`)}" tests="1" failures="0" errors="1" skipped="0" time="0">`,
      `    <testcase classname="hrmock.contract" name="hrmock check could run" time="0">`,
      `      <error message="${xml(report.error)}" type="CannotRun">${xml(report.error)}</error>`,
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
  }
  const cases = report.results.map(({ id, title, outcome, ms }) => {
    const open = `    <testcase classname="hrmock.contract" name="${xml(`${id}: ${title}`)}" time="${(ms / 1000).toFixed(3)}"`;
    if (outcome.status === 'pass') return `${open}/>`;
    if (outcome.status === 'skip')
      return `${open}>\n      <skipped message="${xml(outcome.why)}"/>\n    </testcase>`;
    const { request, expected, got } = outcome.evidence;
    return `${open}>\n      <failure message="${xml(`expected ${expected}`)}" type="${xml(id)}">${xml(`request:  ${request}\nexpected: ${expected}\ngot:      ${got}`)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hrmock check" tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}" time="${(report.ms / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(`contract rules at ${report.baseUrl}`)}" tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}" time="${(report.ms / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
