export type JournalOptions = {
  /** Headers kept as `[redacted]` besides the secret ones (`--redact-header`). */
  redactHeaders?: string[];
  /** Values never kept wherever a request carries them: the configured API key. */
  secretValues?: (string | undefined)[];
  /** Bytes the journal may hold in all (default 32 MiB): the oldest requests go to stay inside. */
  bytes?: number;
  /** Bytes kept of one URL, body or set of headers (default 64 KiB); the rest is cut. */
  pieceBytes?: number;
};

export const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;
export const MIN_JOURNAL_BYTES = 64 * 1024;
export const DEFAULT_PIECE_BYTES = 64 * 1024;
/** The bookkeeping of one kept request: its typed-array cells and two references. */
export const SLOT_BYTES = 3 * 8 + 2 + 3 * (8 + 4 + 8) + 2 * 8;
/** Bytes of URL, body and headers a request takes on average: the byte log's first size. */
const BYTES_PER_REQUEST = 2048;

/** How a journal of `size` requests spends its budget; a size or budget that cannot work throws. */
export function journalLayout(
  size: number,
  options: JournalOptions,
): { budget: number; pieceBytes: number; firstLog: number; growths: number } {
  if (!(Number.isInteger(size) && size >= 0))
    throw new RangeError(
      `journalSize must be a whole number of requests, 0 or more (0 keeps none), got ${JSON.stringify(size)}`,
    );
  const budget = options.bytes ?? DEFAULT_JOURNAL_BYTES;
  if (!(Number.isInteger(budget) && budget >= MIN_JOURNAL_BYTES))
    throw new RangeError(
      `journalBytes must be a whole number of bytes, at least ${MIN_JOURNAL_BYTES}, got ${JSON.stringify(budget)}`,
    );
  const logMax = budget - size * SLOT_BYTES;
  if (logMax < budget / 2)
    throw new RangeError(
      `journalSize ${size} needs ${size * SLOT_BYTES} bytes of bookkeeping, over half of journalBytes (${budget}): raise journalBytes or lower journalSize`,
    );
  const pieceBytes = Math.min(options.pieceBytes ?? DEFAULT_PIECE_BYTES, Math.floor(logMax / 4));
  if (size === 0) return { budget, pieceBytes, firstLog: 1, growths: 0 };
  // The log starts at the largest size / 2^k above what it needs first, and doubles as needed:
  // a whole multiple keeps every piece where it was, and the last doubling reaches the largest.
  const wanted = Math.max(4 * pieceBytes, size * BYTES_PER_REQUEST);
  const growths = Math.max(0, Math.floor(Math.log2(logMax / wanted)));
  return { budget, pieceBytes, firstLog: Math.floor(logMax / 2 ** growths), growths };
}
