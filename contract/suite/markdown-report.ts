import type { Coverage } from './coverage.ts';
import { shortBy } from './report-coverage.ts';
import {
  bySubject,
  DOCUMENTS_HEADING,
  evidenceOf,
  inertText,
  parametersCell,
  type ReportSection,
  statusCells,
  summary,
  verdict,
} from './report-text.ts';
import type { Report, RuleResult } from './run-suite.ts';

/** How much of one value a table cell shows. */
export const MARKDOWN_CELL_CHARS = 200;

const MARK = { PASS: '✅', FAIL: '❌', 'COULD NOT RUN': '⚠️' } as const;

/**
 * Text as inert Markdown inline content: at most `max` characters, one line, no markup of its
 * own (GitHub renders HTML in Markdown, so `<` and `&` are entities), `|` safe in a table.
 */
export function markdownText(text: string, max = MARKDOWN_CELL_CHARS): string {
  const chars = [...text];
  const cut = chars.length > max ? [...chars.slice(0, max - 1), '…'].join('') : text;
  return inertText(cut, (char) => {
    if (char === '\n') return '<br>';
    if (char === '\r' || char === '\t') return ' ';
    return '\\`*_[]~|#!'.includes(char) ? `\\${char}` : undefined;
  });
}

const md = markdownText;

function table(columns: string[], rows: string[][], align: ('l' | 'r')[] = []): string[] {
  const rule = columns.map((_, i) => (align[i] === 'r' ? '---:' : '---'));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(columns), line(rule), ...rows.map(line)];
}

/** A GitHub-flavoured summary for `$GITHUB_STEP_SUMMARY`: verdict, rules, coverage, `sections`. */
export function markdownReport(
  report: Report,
  name: string,
  sections: ReportSection[] = [],
): string {
  const word = verdict(report);
  const lines = [
    `## ${MARK[word]} ${md(name)}: ${word}`,
    '',
    `${md(report.baseUrl)}: ${md(summary(report), 1000)}`,
    '',
  ];
  if (report.error === undefined) {
    const [server, documents] = bySubject(report);
    lines.push(...table(['status', 'rule', 'title', 'result'], server.map(ruleRow)), '');
    if (documents.length > 0)
      lines.push(
        `### ${md(DOCUMENTS_HEADING.replace(/:$/, ''))}`,
        '',
        ...table(['status', 'rule', 'title', 'result'], documents.map(ruleRow)),
        '',
      );
    if (report.coverage !== undefined) lines.push(...coverageLines(report.coverage), '');
    if (report.fuzz !== undefined)
      lines.push(`Fuzz: ${report.fuzz.runs} requests, seed ${report.fuzz.seed}.`, '');
  }
  for (const section of sections)
    lines.push(
      `### ${md(section.heading)}`,
      '',
      ...(section.rows.length === 0
        ? ['none']
        : table(
            section.columns.map((c) => md(c)),
            section.rows.map((row) => row.map((cell) => md(cell))),
          )),
      '',
    );
  if (report.rerun !== undefined) lines.push('Run again:', '', ...fenced(report.rerun), '');
  return lines.join('\n');
}

function ruleRow({ id, title, outcome }: RuleResult): string[] {
  if (outcome.status === 'pass')
    return ['pass', `**${md(id)}**`, md(title), `${outcome.checks} checks`];
  if (outcome.status === 'skip') return ['skip', `**${md(id)}**`, md(title), md(outcome.why)];
  const all = evidenceOf(outcome);
  const more = all.length > 1 ? ` (+${all.length - 1} more)` : '';
  const { request, expected, got } = outcome.evidence;
  return [
    '**FAIL**',
    `**${md(id)}**`,
    md(title),
    `${md(request, 120)}<br>expected: ${md(expected)}<br>got: ${md(got)}${more}`,
  ];
}

function coverageLines(coverage: Coverage): string[] {
  const rows = coverage.operations.map((op) => {
    const { seen, notSeen } = statusCells(coverage, op);
    return [
      `\`${op.operationId}\``,
      op.method,
      `\`${op.path}\``,
      seen.join(' ') || 'not exercised',
      notSeen.join(' '),
      parametersCell(op),
      op.latency === undefined ? '' : String(op.latency.p50Ms),
      op.latency === undefined ? '' : String(op.latency.p95Ms),
    ];
  });
  const gate =
    coverage.min === undefined
      ? []
      : [
          coverage.met
            ? `Coverage ${coverage.percent}% meets --min-coverage ${coverage.min}.`
            : `**Coverage ${coverage.percent}% is under --min-coverage ${coverage.min}**${md(shortBy(coverage))}.`,
          '',
        ];
  return [
    `### Coverage: ${coverage.percent}%`,
    '',
    `${coverage.exercised} of ${coverage.counted} operation x documented status pairs; of all ${coverage.documented} pairs: ${coverage.percentOfAll}%.`,
    '',
    ...gate,
    ...table(
      [
        'operation',
        'method',
        'path',
        'statuses seen',
        'not seen',
        'parameters',
        'p50 ms',
        'p95 ms',
      ],
      rows,
      ['l', 'l', 'l', 'l', 'l', 'r', 'r', 'r'],
    ),
  ];
}

/** A fenced code block whose fence is longer than any run of backticks in `text`. */
function fenced(text: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}sh`, text.replace(/\r?\n/g, ' '), fence];
}
