// Pieces of the control page's script (src/ui/page.ts) that hold no state: what the server
// sends, and how a request is shown. Bundled with it by `npm run types`.

import type { JournalEntry as Entry } from '../http/admin/journal-entry.ts';
import type { Scenario } from '../http/admin/scenarios.ts';
import type { ProxyViolation as Violation } from '../proxy/proxy-report.ts';

// The server's own types, imported for their shape only (erased when bundled): the page reads
// what the journal and the proxy's report send, never a copy that could drift.
export type { JournalEntry as Entry } from '../http/admin/journal-entry.ts';
export type { Scenario } from '../http/admin/scenarios.ts';
export type { ProxyViolation as Violation } from '../proxy/proxy-report.ts';

export type Hello = {
  kind: 'mock' | 'proxy';
  /** Where the API answers, base path included: for "Copy as curl". */
  api: string;
  paths: string[];
  examples: Record<string, string[]>;
  requests: Entry[];
  scenarios?: Scenario[];
  violations?: Violation[];
};

export function el(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  if (className !== '') node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function mainParams(params: Record<string, unknown>): string {
  return Object.entries(params)
    .slice(0, 4)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ')
    .slice(0, 120);
}

const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** The request as a curl command line (`base`: where the API answers): secret headers as a shell variable, never their value. */
export function curlOf(e: Entry, base: string): string {
  const words = ['curl', '-sS'];
  const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (e.method === 'POST') {
    const body = e.body ?? JSON.stringify(e.params);
    words.push('-X', 'POST', quoted(base + e.path), '-H', quoted('Content-Type: application/json'));
    words.push('--data', quoted(body));
  } else {
    const query = new URLSearchParams(Object.entries(e.params).map(([k, v]) => [k, value(v)]));
    words.push(quoted(base + e.path + (query.size > 0 ? `?${query}` : '')));
  }
  for (const [name, v] of Object.entries(e.headers))
    if (v === '[redacted]') words.push('-H', `"${name}: $HRMOCK_API_KEY"`);
  return words.join(' ');
}

export function percentile(sorted: number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
