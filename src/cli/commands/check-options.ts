import { UsageError } from '../usage-error.ts';

/** `--max-rps`: a number of requests a second above 0, or `unlimited`; absent, `fallback`. */
export function maxRps(
  value: string | undefined,
  fallback: number | 'unlimited',
): number | 'unlimited' {
  if (value === undefined) return fallback;
  if (value.trim().toLowerCase() === 'unlimited') return 'unlimited';
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > 100_000)
    throw new UsageError(
      `--max-rps takes requests a second, above 0 (e.g. 20 or 0.5), or "unlimited", got ${JSON.stringify(value)}`,
    );
  return number;
}

/** `--min-coverage`: a percentage from 0 to 100, decimals allowed. */
export function minCoverage(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value.trim().replace(/%$/, ''));
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 100)
    throw new UsageError(
      `--min-coverage takes a percentage from 0 to 100 (e.g. 80 or 92.5), got ${JSON.stringify(value)}`,
    );
  return number;
}

/** `--fuzz`: how many generated requests, a whole number from 1 to 1,000,000. */
export function fuzzRuns(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || number < 1 || number > 1_000_000)
    throw new UsageError(
      `--fuzz takes how many requests to generate, a whole number from 1 to 1000000 (e.g. 300), got ${JSON.stringify(value)}`,
    );
  return number;
}

/** `--seed`: a whole number from 0 to 2^53 - 1 (a CI run id fits); absent, one is drawn. */
export function fuzzSeed(value: string | undefined, fuzz: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (fuzz === undefined) throw new UsageError('--seed seeds --fuzz: send --fuzz N with it');
  const number = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(number))
    throw new UsageError(
      `--seed takes a whole number from 0 to 9007199254740991 (e.g. $GITHUB_RUN_ID), got ${JSON.stringify(value)}`,
    );
  return number;
}

/**
 * The command line that runs this check again, header values as the user wrote them or as
 * references; `word` quotes one shell word.
 */
export function rerunCommand(
  word: (text: string) => string,
  parts: {
    base?: string;
    target?: string;
    headers: { name: string; shown: string }[];
    fuzz?: number;
    seed?: number;
  },
): string {
  const words = ['npx', 'hrmock', 'check'];
  if (parts.base !== undefined) words.push('--base-url', word(parts.base));
  if (parts.target !== undefined) words.push('--target', word(parts.target));
  for (const { name, shown } of parts.headers)
    words.push('--header', `"${name}=${shown.slice(1, -1)}"`);
  if (parts.fuzz !== undefined) words.push('--fuzz', String(parts.fuzz));
  if (parts.seed !== undefined) words.push('--seed', String(parts.seed));
  return words.join(' ');
}
