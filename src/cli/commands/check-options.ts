import { DEFAULT_REMOTE_RPS } from '../../../contract/suite/pace.ts';
import { chosenRules } from '../../../contract/suite/run-suite.ts';
import { expandEnv } from '../../../contract/suite/target.ts';
import { UsageError } from '../usage-error.ts';

export const DEFAULT_DEADLINE_MS = 300_000;

export const CHECK_HELP = `hrmock check: run the contract rules against an implementation

  --base-url URL     the implementation, e.g. https://staging.example.com/v1
                     (default: start the mock in process and check it)
  --target FILE      the objects the checks may use (default: GET {base}/_mock/target), at
                     most 1 MB; hrmock target --from-contract writes one for prism mock
  --header K=V       a header for every request, repeatable; V may be \${ENV_VAR}
  --reporter R       pretty (default), junit, json, html or markdown; repeat
                     --reporter R --output FILE for several
  --output FILE      write the report of the --reporter just before it there, folders
                     created (the summary still goes to stdout); alone: the pretty report
  --via-prism        send the traffic through prism proxy contract/openapi.yaml and fail
                     on any response violation Prism reports (malformed JSON, which Prism
                     answers itself, still goes straight to the implementation)
  --timeout S        seconds one request may take before its rule fails (default 10)
  --deadline S       seconds the whole run may take; later requests fail at once (default 300)
  --max-rps R        at most R requests a second over the whole run, or "unlimited"
                     (default: unlimited against the mock in process or a loopback URL,
                     ${DEFAULT_REMOTE_RPS} against any other host); a 429 is waited out (its
                     Retry-After, within --deadline) and sent again, never a failure
  --fuzz N           after the rules, N requests generated from the contract (FUZZ):
                     no 5xx, 4xx in the error envelope, 2xx valid; it goes on after a
                     failure and reports up to 10 distinct ones, each shrunk
  --seed S           the seed of --fuzz (default: drawn, and printed); the same seed
                     sends the same requests
  --min-coverage P   exit 1 when under P percent of the operation x status pairs are
                     exercised (every report shows the coverage)
  --max-latency MS   fail LATENCY when an operation's p95 answer time over the run is
                     above MS milliseconds (every report shows p50 and p95 per operation)
  --rule ID          run only this rule (e.g. FILTERS), repeatable: to go over one failure
                     again quickly; the report lists only the rules run

Exit status: 0 every rule holds, 1 a rule is violated (or coverage is under
--min-coverage), 2 the check could not run (the report, if asked for, says why), e.g.
"not the API" when a bare GET /profiles/searching and /profiles/grading answer no JSON.
Header values are never printed: a failure's reproduce line (a curl command) shows them as
environment references. No report line is over 8 KB: a longer reproduce line reads its body
(or its long URL) from a numbered file in reproduce/ beside the first --output file, or in
hrmock-reproduce/ without one.`;

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

/** `--max-latency`: milliseconds above 0 that every operation's p95 must not pass. */
export function maxLatency(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value.trim().replace(/ms$/, ''));
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0)
    throw new UsageError(
      `--max-latency takes milliseconds above 0 (e.g. 500), got ${JSON.stringify(value)}`,
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
    maxLatency?: number;
    rules?: string[];
  },
): string {
  const words = ['npx', '--no-install', 'hrmock', 'check'];
  if (parts.base !== undefined) words.push('--base-url', word(parts.base));
  if (parts.target !== undefined) words.push('--target', word(parts.target));
  for (const { name, shown } of parts.headers)
    words.push('--header', `"${name}=${shown.slice(1, -1)}"`);
  if (parts.fuzz !== undefined) words.push('--fuzz', String(parts.fuzz));
  if (parts.seed !== undefined) words.push('--seed', String(parts.seed));
  if (parts.maxLatency !== undefined) words.push('--max-latency', String(parts.maxLatency));
  for (const id of parts.rules ?? []) words.push('--rule', id);
  return words.join(' ');
}

/** `--rule`: the rules named, checked against what the run turns on (see `chosenRules`). */
export function onlyRules(
  ids: string[] | undefined,
  enabled: Parameters<typeof chosenRules>[1],
): string[] | undefined {
  try {
    return chosenRules(ids, enabled);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--header` pairs: the values, `${VAR}` expanded, and the values as written (for reproducers). */
export function parseHeaders(pairs: string[]): {
  headers: Record<string, string>;
  templates: Record<string, string>;
} {
  const headers: Record<string, string> = {};
  const templates: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--header takes NAME=VALUE, got "${pair.split('=')[0]}"`);
    const name = pair.slice(0, at).trim();
    templates[name] = pair.slice(at + 1);
    try {
      headers[name] = expandEnv(pair.slice(at + 1), process.env, `--header ${name}`);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return { headers, templates };
}
