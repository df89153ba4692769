/** A command line that cannot run as given: printed as one line, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function positiveInt(
  flag: string,
  value: string | undefined,
  fallback: number,
  min = 1,
): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min) {
    throw new UsageError(
      `--${flag} must be a whole number of at least ${min}, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}

/** A duration flag in seconds (decimals allowed, above 0), as milliseconds. */
export function durationMs(flag: string, value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > 3600) {
    throw new UsageError(
      `--${flag} takes seconds, above 0 and at most 3600, e.g. 10 or 2.5, got ${JSON.stringify(value)}`,
    );
  }
  return Math.round(number * 1000);
}

/** A port flag: 0 (any free port) to 65535. */
export function portNumber(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || number > 65535)
    throw new UsageError(
      `--${flag} takes a port from 0 to 65535 (0 picks a free one), e.g. ${fallback}, got ${JSON.stringify(value)}`,
    );
  return number;
}
