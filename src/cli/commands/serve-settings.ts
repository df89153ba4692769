import { parseArgs } from 'node:util';
import {
  DEFAULT_JOURNAL_BYTES,
  MIN_JOURNAL_BYTES,
  SLOT_BYTES,
} from '../../http/admin/journal-budget.ts';
import type { Chaos } from '../../http/chaos.ts';
import { DEFAULT_LIMITS } from '../../http/limits.ts';
import { DEFAULT_TIMEOUTS } from '../../node/connections.ts';
import { MAX_RATE } from '../../node/rate-limit.ts';
import { FIXTURE_FLAGS } from '../fixture-options.ts';
import { durationMs, portNumber, positiveInt, UsageError } from '../usage-error.ts';

const SERVE_OPTIONS = {
  ...FIXTURE_FLAGS,
  port: { type: 'string' },
  host: { type: 'string' },
  'base-path': { type: 'string' },
  'api-key': { type: 'string' },
  quiet: { type: 'boolean' },
  'answer-cache-mb': { type: 'string' },
  'max-body-bytes': { type: 'string' },
  'max-url-bytes': { type: 'string' },
  'max-json-depth': { type: 'string' },
  latency: { type: 'string' },
  fixtures: { type: 'string' },
  'fixtures-mode': { type: 'string' },
  'fail-rate': { type: 'string' },
  compress: { type: 'string' },
  'headers-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'keep-alive-timeout': { type: 'string' },
  'write-timeout': { type: 'string' },
  admin: { type: 'string' },
  'journal-size': { type: 'string' },
  'journal-bytes': { type: 'string' },
  'redact-header': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'admin-origin': { type: 'string', multiple: true },
  'rate-limit': { type: 'string' },
  replay: { type: 'string' },
  'replay-strict': { type: 'boolean' },
} as const;

/** `hrmock serve`'s flags, each read and checked once: a bad one is a usage error naming it. */
export function serveSettings(args: string[]) {
  const { values } = parseArgs({ args, options: SERVE_OPTIONS, strict: true });
  const compress = values.compress ?? 'auto';
  if (compress !== 'auto' && compress !== 'off')
    throw new UsageError(`--compress must be auto or off, got "${compress}"`);
  const admin = values.admin ?? 'on';
  if (admin !== 'on' && admin !== 'off')
    throw new UsageError(`--admin must be on or off, got "${admin}"`);
  const port = portNumber('port', values.port, 4010);
  const mode = values['fixtures-mode'] ?? 'merge';
  if (mode !== 'merge' && mode !== 'replace')
    throw new UsageError(`--fixtures-mode must be merge or replace, got "${mode}"`);
  if (values['replay-strict'] && values.replay === undefined)
    throw new UsageError(
      '--replay-strict needs --replay DIR: the folder hrmock proxy --record wrote',
    );
  return {
    values,
    apiKey: values['api-key'] ?? nonEmpty(process.env.HRMOCK_API_KEY),
    compress: compress as 'auto' | 'off',
    admin: admin === 'on',
    port,
    host: values.host ?? '127.0.0.1',
    allowedHosts: [values.host ?? '127.0.0.1', ...allowedHosts(values['allowed-host'] ?? [])],
    adminOrigins: (values['admin-origin'] ?? []).map(adminOrigin),
    mode: mode as 'merge' | 'replace',
    timeouts: timeoutsFrom(values),
    ...journalFrom(values, admin === 'on'),
    rateLimit: rateFrom(values['rate-limit']),
    answerCacheMb: positiveInt('answer-cache-mb', values['answer-cache-mb'], 64, 0),
    limits: {
      bodyBytes: positiveInt('max-body-bytes', values['max-body-bytes'], DEFAULT_LIMITS.bodyBytes),
      urlBytes: positiveInt('max-url-bytes', values['max-url-bytes'], DEFAULT_LIMITS.urlBytes),
      jsonDepth: positiveInt('max-json-depth', values['max-json-depth'], DEFAULT_LIMITS.jsonDepth),
    },
  };
}

export type ServeSettings = ReturnType<typeof serveSettings>;

function timeoutsFrom(values: Record<string, unknown>) {
  const read = (name: string, fallback: number) =>
    durationMs(name, values[name] as string | undefined, fallback);
  return {
    headersMs: read('headers-timeout', DEFAULT_TIMEOUTS.headersMs),
    requestMs: read('request-timeout', DEFAULT_TIMEOUTS.requestMs),
    keepAliveMs: read('keep-alive-timeout', DEFAULT_TIMEOUTS.keepAliveMs),
    writeMs: read('write-timeout', DEFAULT_TIMEOUTS.writeMs),
  };
}

/** `--latency MIN-MAX` and `--fail-rate R` as the app's chaos, or nothing. */
export function chaosFrom(
  latency: string | undefined,
  failRate: string | undefined,
  seed: number,
): { chaos?: Chaos } {
  if (latency === undefined && failRate === undefined) return {};
  const chaos: Chaos = { seed };
  if (latency !== undefined) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(latency);
    const min = Number(range?.[1]);
    const max = Number(range?.[2] ?? range?.[1]);
    if (!range || min > max || max > 60_000)
      throw new UsageError(
        `--latency takes MIN-MAX milliseconds up to 60000, e.g. 50-300, got "${latency}"`,
      );
    chaos.latency = { min, max };
  }
  if (failRate !== undefined) {
    const rate = Number(failRate);
    if (failRate.trim() === '' || !(rate >= 0 && rate <= 1))
      throw new UsageError(`--fail-rate takes a share from 0 to 1, e.g. 0.05, got "${failRate}"`);
    chaos.failRate = rate;
  }
  return { chaos };
}

/** `--rate-limit N/s`: requests a second, or undefined when the flag is absent. */
function rateFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(\d+)\s*\/\s*s\s*$/.exec(value);
  const rate = Number(match?.[1]);
  if (match === null || !(rate >= 1 && rate <= MAX_RATE))
    throw new UsageError(
      `--rate-limit takes requests a second as N/s with N from 1 to ${MAX_RATE}, e.g. 10/s, got "${value}"`,
    );
  return rate;
}

/** `--allowed-host NAME`: a host name or address, without scheme, path or port. */
function allowedHosts(names: string[]): string[] {
  for (const name of names)
    if (!/^(\[[0-9a-f:.]+\]|[^\s/:@[\]]+|[0-9a-f:]+)$/i.test(name))
      throw new UsageError(
        `--allowed-host takes a host name or address as clients send it in Host, without port, e.g. mock or 192.168.1.20, got "${name}"`,
      );
  return names;
}

/** `--admin-origin ORIGIN`: scheme, host and port of a browser app, e.g. http://localhost:5173. */
function adminOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (
    url === undefined ||
    !/^https?:$/.test(url.protocol) ||
    value.replace(/\/$/, '') !== url.origin
  )
    throw new UsageError(
      `--admin-origin takes an origin (scheme, host and port, no path), e.g. http://localhost:5173, got "${value}"`,
    );
  return url.origin;
}

/**
 * `--journal-size` (default 1000, none with `--admin off`: nothing would read it) and
 * `--journal-bytes`, the journal's whole budget, which its bookkeeping may take half of at most.
 */
function journalFrom(
  values: { 'journal-size'?: string; 'journal-bytes'?: string },
  admin: boolean,
) {
  const journalSize = positiveInt('journal-size', values['journal-size'], admin ? 1000 : 0, 0);
  const journalBytes = positiveInt(
    'journal-bytes',
    values['journal-bytes'],
    DEFAULT_JOURNAL_BYTES,
    MIN_JOURNAL_BYTES,
  );
  if (journalSize * SLOT_BYTES > journalBytes / 2)
    throw new UsageError(
      `--journal-size ${journalSize} needs ${journalSize * SLOT_BYTES} bytes of bookkeeping, over half of --journal-bytes ${journalBytes}: raise --journal-bytes or lower --journal-size`,
    );
  return { journalSize, journalBytes };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
