/**
 * The deepest nesting of arrays and objects `check` parses in an answer. The contract's deepest
 * answer nests 8 levels (a grading answer with full profiles); the mock refuses request bodies
 * deeper than the same 64.
 */
export const MAX_ANSWER_DEPTH = 64;

/** An answer's text read as JSON, or why not when the text may be JSON but is refused unread. */
export type AnswerJson = { ok: true; value: unknown } | { ok: false; why?: string };

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the characters,
 * brackets inside strings not counted, so no parser (and no recursion) ever sees a deeper one.
 * A string is stepped over to its closing quote by `indexOf`, which is much quicker than looking
 * at each of its characters, and answers are mostly strings.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false; // an unterminated string: not JSON, which the parser says
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** Where the string opened at `open` closes: the next quote not escaped, or -1. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** An answer's text as JSON; text nested deeper than `maxDepth` is refused before parsing. */
export function parseAnswer(text: string, maxDepth = MAX_ANSWER_DEPTH): AnswerJson {
  if (nestedDeeperThan(text, maxDepth))
    return { ok: false, why: `answer nested deeper than ${maxDepth} levels` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
