import type { Context } from 'hono';
import { mergePatch } from '../../engine/merge-patch.ts';
import { WARNING_HEADER } from '../api-cors.ts';

/** An answer a scenario made (a `body`, a `patch`), to be checked against the contract. */
export type MadeAnswer = { method: string; path: string; status: number; body: unknown };

/**
 * Says what is wrong with an answer by the contract (the first error: JSON pointer and message),
 * or undefined when it fits. Given by the layers that may read the contract's validator (Node:
 * `startMock`, `hrmock serve`); without one, scenario bodies are answered unchecked.
 */
export type AnswerCheck = (answer: MadeAnswer) => Promise<string | undefined>;

/** The longest warning sent: the first error is enough to find the rest. */
const MAX_WARNING = 300;

/** `respond: {body, status?, headers?}`: the body as it is, with a warning if it breaks the contract. */
export async function bodyAnswer(
  c: Context,
  respond: { body: unknown; status?: number; headers?: Record<string, string> },
  path: string,
  check: AnswerCheck | undefined,
): Promise<Response> {
  const status = respond.status ?? 200;
  const headers = new Headers({ 'Content-Type': 'application/json' });
  for (const [name, value] of Object.entries(respond.headers ?? {})) headers.set(name, value);
  const made = { method: c.req.method, path, status, body: respond.body };
  await warn(headers, made, check);
  return new Response(JSON.stringify(respond.body), { status, headers });
}

/**
 * `respond: {patch, status?, headers?}`: the normal answer's JSON body merge-patched (RFC 7396),
 * with a warning if the result breaks the contract. An answer that is not a 2xx JSON one (the
 * request's own 400, say) is left as it was, with a warning saying why.
 */
export async function patchedAnswer(
  answer: Response,
  respond: { patch: Record<string, unknown>; status?: number; headers?: Record<string, string> },
  method: string,
  path: string,
  check: AnswerCheck | undefined,
): Promise<Response> {
  const json = /^application\/json\b/i.test(answer.headers.get('content-type') ?? '');
  if (!json || answer.status < 200 || answer.status > 299) {
    const kept = new Response(answer.body, answer);
    kept.headers.append(
      WARNING_HEADER,
      `the scenario's patch was not applied: the normal answer was a ${answer.status}${json ? '' : ' that is not JSON'}`,
    );
    return kept;
  }
  const body = mergePatch(await answer.json(), respond.patch);
  const status = respond.status ?? answer.status;
  const headers = new Headers(answer.headers);
  headers.delete('content-length');
  for (const [name, value] of Object.entries(respond.headers ?? {})) headers.set(name, value);
  await warn(headers, { method, path, status, body }, check);
  return new Response(JSON.stringify(body), { status, headers });
}

/** Adds the check's finding to the answer's X-Hrmock-Warning (after any already there). */
async function warn(headers: Headers, made: MadeAnswer, check: AnswerCheck | undefined) {
  if (check === undefined) return;
  let problem: string | undefined;
  try {
    problem = await check(made);
  } catch (error) {
    problem = `the body could not be checked against the contract: ${(error as Error).message}`;
  }
  if (problem !== undefined) headers.append(WARNING_HEADER, headerSafe(problem));
}

/** Printable ASCII only (a body's member names may hold anything), at most MAX_WARNING long. */
function headerSafe(text: string): string {
  const printable = text.replace(/[^\x20-\x7e]/g, '?').trim();
  return printable.length > MAX_WARNING ? `${printable.slice(0, MAX_WARNING - 3)}...` : printable;
}
