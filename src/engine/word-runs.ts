const WORD = /^[\p{L}\p{N}]$/u;
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = WORD.test(String.fromCharCode(c)) ? 1 : 0;
/** Basic-plane answers, remembered: 0 not asked yet, 1 a letter or digit, 2 not. */
const BMP_WORD = new Uint8Array(0x10000);

function isWordCodePoint(codePoint: number): boolean {
  if (codePoint > 0xffff) return WORD.test(String.fromCodePoint(codePoint));
  let known = BMP_WORD[codePoint] as number;
  if (known === 0) {
    known = WORD.test(String.fromCodePoint(codePoint)) ? 1 : 2;
    BMP_WORD[codePoint] = known;
  }
  return known === 1;
}

/**
 * Calls `visit(start, end)` for each maximal run of letters and digits (any script) in `text`.
 * Texts and keywords are cut the same way, which is what lets the text index find candidates.
 */
export function forEachWordRun(text: string, visit: (start: number, end: number) => void): void {
  const length = text.length;
  let start = -1;
  let i = 0;
  while (i < length) {
    const unit = text.charCodeAt(i);
    let width = 1;
    let word: boolean;
    if (unit < 128) {
      word = ASCII_WORD[unit] === 1;
    } else {
      const codePoint = text.codePointAt(i) as number;
      if (codePoint > 0xffff) width = 2;
      word = isWordCodePoint(codePoint);
    }
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      visit(start, i);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) visit(start, length);
}

/** The runs of letters and digits in `text`, in order. */
export function wordRuns(text: string): string[] {
  const runs: string[] = [];
  forEachWordRun(text, (start, end) => runs.push(text.slice(start, end)));
  return runs;
}
