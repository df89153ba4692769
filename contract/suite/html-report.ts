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

/**
 * The page loads nothing and runs nothing: every byte of evidence comes from the server under
 * test, so even a tag that escaped escaping could neither fetch nor execute.
 */
export const HTML_REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700;
  --line: #d0d7de; --soft: rgba(127, 127, 127, 0.08); }
body { font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 0 auto;
  max-width: 72rem; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.4rem; margin: 0.5rem 0; } h2 { font-size: 1.15rem; margin-top: 2rem;
  border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; } h3 { font-size: 1rem; margin: 0; }
code, pre { font: 12.5px/1.4 ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.command { user-select: all; background: var(--soft); border: 1px solid var(--line);
  border-radius: 4px; padding: 0.4rem 0.6rem; }
.badge { display: inline-block; min-width: 3.2em; text-align: center; border-radius: 4px;
  padding: 0 0.4em; color: #fff; font-weight: 600; font-size: 0.85em; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); }
.badge.skip, .badge.error { background: var(--skip); }
.rule { border: 1px solid var(--line); border-radius: 6px; padding: 0.45rem 0.7rem; margin: 0.4rem 0; }
.rule.fail { border-left: 4px solid var(--fail); } .rule .note { margin: 0.2rem 0 0; opacity: 0.8; }
.id { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 600; }
.evidence { margin: 0.6rem 0 0.2rem; padding: 0.5rem; background: var(--soft); border-radius: 4px; }
.evidence h4 { margin: 0 0 0.3rem; font-size: 0.85rem; }
.evidence dl { display: grid; grid-template-columns: 6.5rem 1fr; gap: 0.3rem 0.6rem; margin: 0; }
.evidence dt { font-weight: 600; } .evidence dd { margin: 0; min-width: 0; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid var(--line); padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
thead th { background: var(--soft); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
`;

/** Text as HTML content or a quoted attribute value; control characters become U+FFFD. */
export function escapeHtml(text: string): string {
  return inertText(text, (char) => (char === '"' ? '&quot;' : char === "'" ? '&#39;' : undefined));
}

const e = escapeHtml;

/** One self-contained page: summary, every rule and its evidence, coverage, and `sections`. */
export function htmlReport(report: Report, name: string, sections: ReportSection[] = []): string {
  const word = verdict(report);
  const badge = word === 'PASS' ? 'pass' : word === 'FAIL' ? 'fail' : 'error';
  const body =
    report.error !== undefined
      ? [`<section id="error"><h2>Could not run</h2><pre>${e(report.error)}</pre></section>`]
      : [
          factsSection(report),
          ...rulesSections(report),
          ...(report.coverage === undefined ? [] : [coverageSection(report.coverage)]),
        ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(HTML_REPORT_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`${name} ${word}: ${report.baseUrl}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1><span class="badge ${badge}">${e(word)}</span> ${e(name)} <code>${e(report.baseUrl)}</code></h1>
<p class="summary">${e(summary(report))}</p>
</header>
${[...body, ...sections.map(sectionHtml)].join('\n')}
</body>
</html>
`;
}

function factsSection(report: Report): string {
  const { coverage, fuzz } = report;
  const facts: [string, string][] = [
    ['rules', String(report.results.length)],
    ['passed', String(report.passed)],
    ['failed', String(report.failed)],
    ['skipped', String(report.skipped)],
    ['duration', `${(report.ms / 1000).toFixed(1)} s`],
  ];
  if (coverage !== undefined) {
    facts.push([
      'coverage',
      `${coverage.percent}% of the operation x documented status pairs (${coverage.exercised} of ${coverage.counted}); of all ${coverage.documented} pairs: ${coverage.percentOfAll}%`,
    ]);
    if (coverage.min !== undefined)
      facts.push([
        '--min-coverage',
        `${coverage.min}%: ${coverage.met ? 'met' : `not met${shortBy(coverage)}`}`,
      ]);
  }
  if (fuzz !== undefined) {
    const judged = fuzz.judged === undefined ? '' : `, ${fuzz.judged} judged`;
    const stopped = fuzz.stoppedEarly === undefined ? '' : `; stopped early: ${fuzz.stoppedEarly}`;
    facts.push(
      ['fuzz', `${fuzz.runs} requests${judged}${stopped}`],
      ['fuzz seed', String(fuzz.seed)],
    );
  }
  if (report.rateLimited) facts.push(['429 waited out', String(report.rateLimited)]);
  const rows = facts.map(([k, v]) => `<tr><th scope="row">${e(k)}</th><td>${e(v)}</td></tr>`);
  if (report.rerun !== undefined)
    rows.push(
      `<tr><th scope="row">run again</th><td><pre class="command">${e(report.rerun)}</pre></td></tr>`,
    );
  return `<section id="summary"><h2>Summary</h2>
<table class="facts"><tbody>
${rows.join('\n')}
</tbody></table>
</section>`;
}

function rulesSections(report: Report): string[] {
  const [server, documents] = bySubject(report);
  const out = [
    `<section id="rules"><h2>Rules</h2>\n${server.map(ruleHtml).join('\n')}\n</section>`,
  ];
  if (documents.length > 0)
    out.push(
      `<section id="documents"><h2>${e(DOCUMENTS_HEADING.replace(/:$/, ''))}</h2>\n${documents.map(ruleHtml).join('\n')}\n</section>`,
    );
  return out;
}

function ruleHtml({ id, title, outcome, ms }: RuleResult): string {
  const head = (status: string, word: string) =>
    `<article class="rule ${status}" id="rule-${e(id)}">\n<h3><span class="badge ${status}">${word}</span> <span class="id">${e(id)}</span> ${e(title)}</h3>`;
  const time = ms > 0 ? ` in ${(ms / 1000).toFixed(2)} s` : '';
  if (outcome.status === 'pass')
    return `${head('pass', 'pass')}\n<p class="note">${outcome.checks} checks${time}</p>\n</article>`;
  if (outcome.status === 'skip')
    return `${head('skip', 'skip')}\n<p class="note">why: ${e(outcome.why)}</p>\n</article>`;
  const all = evidenceOf(outcome);
  const note = `${all.length === 1 ? '1 broken promise' : `${all.length} broken promises`}${time}${outcome.crashed ? '; the rule itself crashed (a bug in the rule, not a verdict)' : ''}`;
  const pieces = all.map((evidence, i) => {
    const field = (label: string, text: string, kind = '') =>
      `<dt>${label}</dt><dd><pre${kind}>${e(text)}</pre></dd>`;
    return [
      '<div class="evidence">',
      all.length > 1 ? `<h4>${i + 1} of ${all.length}</h4>` : '',
      '<dl>',
      field('request', evidence.request),
      field('expected', evidence.expected),
      field('got', evidence.got),
      evidence.reproduce === undefined
        ? ''
        : field('reproduce', evidence.reproduce, ' class="command"'),
      '</dl>',
      '</div>',
    ]
      .filter((line) => line !== '')
      .join('\n');
  });
  return `${head('fail', 'FAIL')}\n<p class="note">${e(note)}</p>\n${pieces.join('\n')}\n</article>`;
}

function coverageSection(coverage: Coverage): string {
  const rows = coverage.operations.map((op) => {
    const { seen, notSeen } = statusCells(coverage, op);
    const unsent =
      op.unsentParameters.length > 0
        ? ` title="not sent: ${e(op.unsentParameters.join(', '))}"`
        : '';
    return `<tr><td><code>${e(op.operationId)}</code></td><td>${e(op.method)}</td><td><code>${e(op.path)}</code></td><td>${e(seen.join(' ') || 'not exercised')}</td><td>${e(notSeen.join(' '))}</td><td class="num"${unsent}>${e(parametersCell(op))}</td><td class="num">${op.latency === undefined ? '' : e(String(op.latency.p50Ms))}</td><td class="num">${op.latency === undefined ? '' : e(String(op.latency.p95Ms))}</td></tr>`;
  });
  const notCounted = coverage.notCounted.map(
    (n) => `<li><code>${e(n.status)}</code>: ${e(n.why)}</li>`,
  );
  const outside = Object.entries(coverage.outside).map(
    ([where, statuses]) =>
      `<tr><td><code>${e(where)}</code></td><td>${e(
        Object.entries(statuses)
          .map(([s, n]) => `${s}x${n}`)
          .join(' '),
      )}</td></tr>`,
  );
  const gate =
    coverage.min === undefined
      ? ''
      : coverage.met
        ? `<p><span class="badge pass">pass</span> coverage ${coverage.percent}% meets --min-coverage ${coverage.min}</p>`
        : `<p><span class="badge fail">FAIL</span> coverage ${coverage.percent}% is under --min-coverage ${e(`${coverage.min}${shortBy(coverage)}`)}</p>`;
  return [
    '<section id="coverage"><h2>Coverage</h2>',
    `<p>${coverage.percent}% of the operation x documented status pairs (${coverage.exercised} of ${coverage.counted}); of all ${coverage.documented} pairs: ${coverage.percentOfAll}%.</p>`,
    gate,
    '<table class="coverage"><thead><tr><th>operation</th><th>method</th><th>path</th><th>statuses seen (x answers)</th><th>not seen</th><th>parameters sent</th><th>p50 ms</th><th>p95 ms</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody></table>`,
    notCounted.length === 0
      ? ''
      : `<p>Not counted (no request brings them from a conforming server):</p><ul>${notCounted.join('')}</ul>`,
    outside.length === 0
      ? ''
      : `<p>Answers to requests that match no operation:</p><table class="outside"><thead><tr><th>request</th><th>statuses</th></tr></thead><tbody>${outside.join('')}</tbody></table>`,
    '</section>',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

function sectionHtml(section: ReportSection, index: number): string {
  const head = section.columns.map((c) => `<th>${e(c)}</th>`).join('');
  const rows = section.rows.map(
    (row) => `<tr>${row.map((cell) => `<td><pre>${e(cell)}</pre></td>`).join('')}</tr>`,
  );
  const empty = rows.length === 0 ? '<p>none</p>' : '';
  return `<section id="extra-${index + 1}"><h2>${e(section.heading)}</h2>
${empty || `<table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`}
</section>`;
}
