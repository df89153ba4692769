import { createHash } from 'node:crypto';
import type { Captured } from './forward.ts';

/** How many exchanges the forwarding thread remembers having had judged whole. */
export const SENT = 1000;
/** How many verdicts the judge keeps: more than SENT, so that a repeat sent bare is known. */
export const VERDICTS = 2 * SENT;

/**
 * What makes two exchanges the same for the judge: method, URL, request body, status, content
 * type and encoding, and the answer's bytes as they came. Undefined when the answer was not kept.
 */
export function fingerprintOf(captured: Captured): string | undefined {
  if (captured.answer === undefined) return undefined;
  return createHash('sha1')
    .update(`${captured.method}\n${captured.url}\n${captured.requestText ?? ''}\n`)
    .update(`${captured.status}\n${headerOf(captured, 'content-type') ?? ''}\n`)
    .update(`${headerOf(captured, 'content-encoding') ?? ''}\n`)
    .update(captured.answer)
    .digest('base64');
}

export function headerOf(captured: Captured, name: string): string | undefined {
  return captured.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}
