/**
 * Before any rule: is this the API at all? Every implementation answers a bare request to these
 * paths with JSON, if only a 4xx envelope naming the missing parameter. A server whose answers to
 * them are none of them JSON (no JSON content type, a body that does not parse) is something
 * else (a web page, a gateway's error page, the API under another base path): the check stops
 * there (exit 2) rather than failing every rule. A server answering JSON is judged, however wrong.
 */
export const PROBE_PATHS = ['/profiles/searching', '/profiles/grading'] as const;

/** One answer to a probe, as much of it as the verdict needs. */
export type ProbeAnswer = {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  text: string;
};

/** Whether an answer is JSON by its content type or by its body. */
export function isJsonAnswer(answer: Pick<ProbeAnswer, 'contentType' | 'text'>): boolean {
  if (/^application\/(?:[\w.+-]*\+)?json\b/i.test(answer.contentType?.trim() ?? '')) return true;
  if (answer.text.trim() === '') return false;
  try {
    JSON.parse(answer.text);
    return true;
  } catch {
    return false;
  }
}

/** Why the answers show no API, naming the first; nothing when one of them is JSON. */
export function notTheApi(answers: ProbeAnswer[]): string | undefined {
  const [first] = answers;
  if (first === undefined || answers.some(isJsonAnswer)) return undefined;
  const type = first.contentType?.split(';')[0]?.trim() || 'no content type';
  const text = first.text.replace(/\s+/g, ' ').trim();
  const excerpt = JSON.stringify(text.slice(0, 40)).slice(1, -1);
  const body = text === '' ? 'an empty body' : `"${excerpt}${text.length > 40 ? '…' : ''}"`;
  return `not the API: ${first.method} ${first.url} answered ${first.status} ${type} (${body}); is --base-url the API's base (with its /v1)?`;
}

/**
 * Asks the probe paths, one after the other, until one answers JSON; why this is not the API
 * when none did. `ask` answers nothing when it got no answer: then no verdict either way.
 */
export async function probeApi(
  ask: (path: string) => Promise<ProbeAnswer | undefined>,
): Promise<string | undefined> {
  const answers: ProbeAnswer[] = [];
  for (const path of PROBE_PATHS) {
    const answer = await ask(path);
    if (answer === undefined || isJsonAnswer(answer)) return undefined;
    answers.push(answer);
  }
  return notTheApi(answers);
}
