import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README and docs/ are for users: what hrmock does and how, with figures and the command
// that makes them. A commit hash, an issue number or a session's story is for the git log.
const root = new URL('../../', import.meta.url);
const files = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Hex of 7 to 12 characters with a digit and a letter: a short commit hash (40-hex keys pass). */
const COMMIT = /(?<![\w-])(?=[0-9a-f]{0,11}[a-f])(?=[0-9a-f]{0,11}[0-9])[0-9a-f]{7,12}(?![\w-])/g;
const ISSUE = /\bissues? #?\d+|(?<![\w&])#\d{1,4}\b/gi;
const STORY = /\b(this|that|last|earlier|other) sessions?\b|\bsessions'/gi;

/** The lines of `file` that match `pattern`, with their numbers. */
function hits(file: string, pattern: RegExp): string[] {
  const lines = readFileSync(new URL(file, root), 'utf8').split('\n');
  return lines.flatMap((line, i) =>
    [...line.matchAll(pattern)].map((m) => `${file}:${i + 1}: ${m[0]}`),
  );
}

describe.each(files)('%s', (file) => {
  it('names no commit hash', () => expect(hits(file, COMMIT)).toEqual([]));
  it('names no issue number', () => expect(hits(file, ISSUE)).toEqual([]));
  it('tells no session’s story', () => expect(hits(file, STORY)).toEqual([]));
});
