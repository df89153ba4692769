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
