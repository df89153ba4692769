import { cutLength } from './byte-log.ts';

/** How much of each answer the live page is told (`Journal.watch` with `wantsAnswers`). */
export const PREVIEW_BYTES = 1024;

const decoder = new TextDecoder();

/** The first KB of an answer's bytes as text, a character cut in two left out. */
export function answerPreview(bytes: Uint8Array): string {
  return decoder.decode(bytes.subarray(0, cutLength(bytes, PREVIEW_BYTES)));
}

/**
 * The first KB of an answer, read from a copy of its body (the answer itself is left whole to be
 * written); undefined when it has none or cannot be read.
 */
export async function responsePreview(response: Response): Promise<string | undefined> {
  if (response.body === null) return undefined;
  const reader = response.clone().body?.getReader();
  if (reader === undefined) return undefined;
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < PREVIEW_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } catch {
    return undefined;
  } finally {
    void reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return answerPreview(bytes);
}
