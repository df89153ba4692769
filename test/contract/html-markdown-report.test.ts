import { beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, HTML_REPORT_CSP } from '../../contract/suite/html-report.ts';
import { LIVE_RULES } from '../../contract/suite/live-rules.ts';
import { MARKDOWN_CELL_CHARS, markdownText } from '../../contract/suite/markdown-report.ts';
import { evidenceOf, render } from '../../contract/suite/reporters.ts';
import { couldNotRun, type Report } from '../../contract/suite/run-suite.ts';
import { renderProxyReport, reportOf } from '../../src/proxy/proxy-report.ts';
import { HOSTILE_IMG, HOSTILE_SCRIPT, hostileReport } from '../support/hostile-report.ts';

let report: Report;
let html: string;
let markdown: string;

beforeAll(async () => {
  report = await hostileReport();
  html = render(report, 'html');
  markdown = render(report, 'markdown');
});

/** The rows of the first `<tbody>` after `marker`. */
function rowsAfter(page: string, marker: string): string[] {
  const body = page.slice(page.indexOf(marker)).split('<tbody>')[1]?.split('</tbody>')[0] ?? '';
  return body.split('<tr>').slice(1);
}

/** The cells of a Markdown table line, split on unescaped `|`. */
function cells(line: string): string[] {
  return line.split(/(?<!\\)\|/).slice(1, -1);
}

const liveRule = LIVE_RULES[0] as (typeof LIVE_RULES)[number];
const proxyReport = reportOf({
  upstream: 'http://127.0.0.1:9',
  exchanges: 7,
  judged: 5,
  unjudged: 1,
  notJudgedBehind: 1,
  violationCount: 3,
  violations: [
    {
      rule: liveRule.id,
      side: 'server',
      method: 'GET',
      path: '/profiles/searching',
      status: 200,
      message: `got ${HOSTILE_SCRIPT}`,
      request: `text_keywords=${HOSTILE_IMG}`,
      reproduce: "curl -sS -i -g -X GET 'http://127.0.0.1:9/profiles/searching?text_keywords=%3C'",
    },
  ],
  upstreamFailures: [],
  counts: new Map([[liveRule.id, { checks: 5, violations: 3 }]]),
});

describe('the HTML report', () => {
  it('fails rules on the hostile server, with its markup in their evidence', () => {
    const got = report.results.flatMap((r) =>
      r.outcome.status === 'fail' ? evidenceOf(r.outcome).map((e) => e.got) : [],
    );
    expect(got.some((g) => g.includes(HOSTILE_SCRIPT) && g.includes(HOSTILE_IMG))).toBe(true);
  });

  it('shows a server’s script and img only as escaped text', () => {
    expect(html).not.toContain(HOSTILE_SCRIPT);
    expect(html).not.toContain(HOSTILE_IMG);
    expect(html).not.toMatch(/<(script|img|iframe|object|embed|link|svg|a)\b/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('loads nothing: no src, href or url() at all, and a CSP that forbids any load', () => {
    // Text holds no `<`, so every `<…>` is a tag the report wrote.
    const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(100);
    for (const tag of tags) {
      expect(tag).not.toMatch(/\s(src|href|srcset|action|poster|data|formaction|style)\s*=/i);
      expect(tag).not.toMatch(/https?:/i);
    }
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(HTML_REPORT_CSP)}">`,
    );
    expect(HTML_REPORT_CSP).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/);
  });

  it('gives every piece of evidence of every failed rule, the reproduce line in a <pre>', () => {
    for (const result of report.results) {
      expect(html).toContain(`<span class="id">${result.id}</span>`);
      if (result.outcome.status !== 'fail') continue;
      for (const { request, expected, got, reproduce } of evidenceOf(result.outcome)) {
        for (const text of [request, expected, got]) expect(html).toContain(escapeHtml(text));
        expect(html).toContain(`<pre class="command">${escapeHtml(reproduce ?? '')}</pre>`);
      }
    }
  });

  it('holds the summary: counts, duration, coverage', () => {
    expect(html).toContain(`<th scope="row">failed</th><td>${report.failed}</td>`);
    expect(html).toMatch(/<th scope="row">duration<\/th><td>[\d.]+ s<\/td>/);
    expect(html).toContain(`${report.coverage?.percent}% of the operation x documented status`);
  });

  it('puts ADDITIVE under the contract documents heading, after the server rules', () => {
    const heading = html.indexOf('<h2>contract documents (');
    expect(heading).toBeGreaterThan(html.indexOf('<span class="id">ENV</span>'));
    expect(html.indexOf('<span class="id">ADDITIVE</span>')).toBeGreaterThan(heading);
  });

  it('has one coverage row per operation, with statuses, parameters and p50/p95', () => {
    const rows = rowsAfter(html, 'class="coverage"');
    expect(rows).toHaveLength(report.coverage?.operations.length ?? -1);
    expect(rows).toHaveLength(12);
    expect(rows.find((r) => r.includes('>searchProfilesPost<'))).toMatch(
      /POST.*\/profiles\/searching.*200x\d+.*\d+\/\d+<\/td><td class="num">[\d.]+<\/td><td class="num">[\d.]+</,
    );
  });

  it('fuzz seed and the could-not-run error show when there', () => {
    const fuzzed = render({ ...report, fuzz: { runs: 50, seed: 1234 } }, 'html');
    expect(fuzzed).toContain('<th scope="row">fuzz seed</th><td>1234</td>');
    const failed = render(couldNotRun('http://x', `cannot reach ${HOSTILE_SCRIPT}`), 'html');
    expect(failed).toContain('COULD NOT RUN');
    expect(failed).not.toContain(HOSTILE_SCRIPT);
  });

  it('shows the proxy’s exchange counts and kept violations, escaped', () => {
    const page = renderProxyReport(proxyReport, 'html');
    expect(page).toContain('<h1><span class="badge fail">FAIL</span> hrmock proxy');
    expect(rowsAfter(page, '<h2>Exchanges</h2>')[0]).toMatch(
      /<pre>7<\/pre>.*<pre>5<\/pre>.*<pre>2<\/pre>.*<pre>1<\/pre>.*<pre>3<\/pre>.*<pre>0<\/pre>/,
    );
    const kept = rowsAfter(page, '<h2>Violations kept (1 of 3)</h2>');
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain(escapeHtml(`text_keywords=${HOSTILE_IMG}`));
    expect(kept[0]).toContain('<pre>curl -sS -i -g -X GET &#39;http://127.0.0.1:9/profiles/');
    expect(page).not.toMatch(/<(script|img)\b/i);
  });
});

describe('the Markdown report', () => {
  it('heads with the verdict and the summary line', () => {
    const [heading, , line] = markdown.split('\n');
    expect(heading).toBe('## ❌ hrmock check: FAIL');
    expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+: 20 rules: \d+ passed, \d+ failed/);
    expect(render({ ...report, failed: 0, passed: report.results.length }, 'markdown')).toMatch(
      /^## ✅ hrmock check: PASS\n/,
    );
    expect(render(couldNotRun('http://x', 'refused'), 'markdown')).toMatch(
      /^## ⚠️ hrmock check: COULD NOT RUN\n\nhttp:\/\/x: could not run: refused\n/,
    );
  });

  it('has one row of four cells per rule, a failure’s expected and got in it, escaped', () => {
    const rows = markdown.split('\n').filter((l) => /^\| (pass|skip|\*\*FAIL\*\*) \|/.test(l));
    expect(rows).toHaveLength(report.results.length);
    for (const row of rows) expect(cells(row)).toHaveLength(4);
    const env = rows.find((r) => r.includes('**ENV**')) ?? '';
    expect(env).toContain('expected: a JSON body<br>got: &lt;/pre&gt;&lt;script&gt;');
    expect(markdown.replace(/<br>/g, '')).not.toMatch(/</);
  });

  it('escapes pipes, newlines and markup, and cuts long values', () => {
    expect(markdownText('a|b\nc')).toBe('a\\|b<br>c');
    expect(markdownText('[x](https://e.example) *y* `z`')).toBe(
      '\\[x\\](https://e.example) \\*y\\* \\`z\\`',
    );
    expect(markdownText(HOSTILE_IMG)).toBe('&lt;img src=x onerror="alert(2)"&gt;');
    const long = markdownText('x'.repeat(1000));
    expect([...long]).toHaveLength(MARKDOWN_CELL_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });

  it('has a coverage table with a row per operation and p50/p95', () => {
    const rows = markdown.split('\n').filter((l) => /^\| `\w+` \| (GET|POST) \|/.test(l));
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(cells(row).slice(-2).join('|')).toMatch(/^ [\d.]+ \| [\d.]+ $/);
  });

  it('adds the proxy’s exchanges and kept violations', () => {
    const text = renderProxyReport(proxyReport, 'markdown');
    expect(text).toMatch(/^## ❌ hrmock proxy: FAIL/);
    expect(text).toContain('### Exchanges\n\n| forwarded | judged |');
    expect(text).toContain('| 7 | 5 | 2 | 1 | 3 | 0 |');
    expect(text).toContain('text\\_keywords=&lt;img src=x onerror="alert(2)"&gt;');
  });
});
