import type { Coverage, OperationCoverage } from './coverage.ts';
import { shortBy } from './report-coverage.ts';
import type { Evidence, Outcome } from './rule.ts';
import type { Report, RuleResult } from './run-suite.ts';

/**
 * A table a command adds to its report beyond the rules (the proxy's exchange counts and kept
 * violations): every cell plain text, escaped by the reporter that draws it.
 */
export type ReportSection = { heading: string; columns: string[]; rows: string[][] };

/** The heading of the rules that judge this checkout's contract files, not the server. */
export const DOCUMENTS_HEADING =
  "contract documents (this checkout's contract/openapi.yaml and contract/history/, whatever the base URL):";

export function summary(report: Report): string {
  if (report.error !== undefined) return `could not run: ${report.error}`;
  const total = report.results.length;
  const extras = [
    report.coverage === undefined ? '' : `; coverage ${report.coverage.percent}%`,
    report.coverage?.met === false
      ? ` (under --min-coverage ${report.coverage.min}${shortBy(report.coverage)})`
      : '',
    report.fuzz === undefined ? '' : `; fuzz seed ${report.fuzz.seed}`,
    report.rateLimited ? `; ${report.rateLimited} answers of 429 waited out` : '',
  ];
  return `${total} rule${total === 1 ? '' : 's'}: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped in ${(report.ms / 1000).toFixed(1)} s${extras.join('')}`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * `text` inert in HTML: `&`, `<` and `>` as entities, control characters (but tab and newline) as
 * U+FFFD. `own` is asked first about each character; its answer, when it has one, stands.
 */
export function inertText(
  text: string,
  own: (char: string) => string | undefined = () => undefined,
): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const control =
      (code < 0x20 && char !== '\t' && char !== '\n') || (code >= 0x7f && code <= 0x9f);
    out += own(char) ?? ENTITIES[char] ?? (control ? '\ufffd' : char);
  }
  return out;
}

/** The run's verdict in a word: what a heading or a badge shows. */
export function verdict(report: Report): 'PASS' | 'FAIL' | 'COULD NOT RUN' {
  if (report.error !== undefined) return 'COULD NOT RUN';
  return report.failed > 0 || report.coverage?.met === false ? 'FAIL' : 'PASS';
}

/** Every piece of evidence of a failed rule, the first first. */
export function evidenceOf(outcome: Extract<Outcome, { status: 'fail' }>): Evidence[] {
  return [outcome.evidence, ...(outcome.more ?? [])];
}

/** The rules about the server, then those about the contract documents. */
export function bySubject(report: Report): [RuleResult[], RuleResult[]] {
  return [
    report.results.filter((r) => r.subject === 'server'),
    report.results.filter((r) => r.subject === 'documents'),
  ];
}

/** One operation's coverage as table cells: statuses seen (`200x12`), documented ones not seen. */
export function statusCells(
  coverage: Coverage,
  op: OperationCoverage,
): { seen: string[]; notSeen: string[] } {
  const entries = Object.entries(op.statuses);
  const notCounted = new Set(coverage.notCounted.map((n) => n.status));
  return {
    seen: entries.filter(([, n]) => n > 0).map(([s, n]) => `${s}x${n}`),
    notSeen: entries.filter(([s, n]) => n === 0 && !notCounted.has(s)).map(([s]) => s),
  };
}

/** The share of documented parameters some request sent: `3/7`. */
export function parametersCell(op: OperationCoverage): string {
  return `${op.parameters.length}/${op.parameters.length + op.unsentParameters.length}`;
}
