/**
 * The Levenshtein distance of two strings (insertions, deletions, substitutions), or `limit + 1`
 * as soon as it is certain to pass `limit`: two rows, no allocation per cell.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const cell = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + cost,
      );
      next.push(cell);
      if (cell < best) best = cell;
    }
    if (best > limit) return limit + 1;
    row = next;
  }
  return Math.min(row[b.length] as number, limit + 1);
}
