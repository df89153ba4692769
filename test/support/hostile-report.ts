import type { Report } from '../../contract/suite/run-suite.ts';
import { runCheck } from '../../src/api/run-check.ts';
import { serveMock } from './check-cli.ts';

/** Markup a hostile server answers with, hoping a report draws it: it must stay text. */
export const HOSTILE_SCRIPT = '<script>alert(1)</script>';
export const HOSTILE_IMG = '<img src=x onerror="alert(2)">';
const HOSTILE = `</pre>${HOSTILE_SCRIPT}${HOSTILE_IMG}<a href="https://evil.example/">x</a>`;

/**
 * A real `runCheck` report of the mock whose `/profiles/grading` answers hostile markup (200,
 * labelled JSON, not JSON): rules fail with that markup in their evidence.
 */
export async function hostileReport(): Promise<Report> {
  const server = await serveMock((fetch) => async (request) => {
    if (new URL(request.url).pathname !== '/profiles/grading') return fetch(request);
    return new Response(HOSTILE, { status: 200, headers: { 'content-type': 'application/json' } });
  });
  try {
    return await runCheck({ baseUrl: server.url });
  } finally {
    await server.close();
  }
}
