import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import {
  type LiveExchange,
  LiveJudge,
  type LiveJudgeOptions,
  type LiveViolation,
} from '../../contract/suite/live-rules.ts';
import {
  curlCommand,
  type ShownHeaders,
  shownHeaderValue,
} from '../../contract/suite/reproduce.ts';
import { BoundedCache } from '../engine/bounded-cache.ts';
import { spelledPath } from '../http/admin/operation-paths.ts';
import { Redaction } from '../http/redaction.ts';
import { writeRecording } from '../recording/recording-files.ts';
import {
  asksOperation,
  readOperationRequest,
  requestKey,
  withoutSecrets,
} from '../recording/request-key.ts';
import type { Captured, UpstreamFailure } from './forward.ts';
import { type ProxyReport, type ProxyViolation, reportOf } from './proxy-report.ts';
import { headerOf, VERDICTS } from './sent-exchanges.ts';
import { parseUpstream, type Upstream, upstreamPath } from './upstream.ts';

export type LiveTrafficOptions = {
  upstream: string;
  /** Folder to record the six operations' exchanges into (secrets removed). */
  record?: string;
  /** Headers (and parameters of the same name) kept out of recordings and reports, besides the usual. */
  redactHeaders?: string[];
  /** Called for each violation as it is found. */
  onViolation?: (violation: ProxyViolation) => void;
  /** The most violations kept in the report (default 1000); all are counted. */
  keepViolations?: number;
  /** The contract and its history, when already parsed (default: read from the package). */
  documents?: Pick<LiveJudgeOptions, 'contract' | 'history'>;
};

/** What a verdict was of, its reproduce line, and the secrets its request carried (kept out of its violations). */
type Named = Pick<LiveExchange, 'method' | 'path' | 'status'> & {
  secrets: string[];
  reproduce: string;
};

/** The most of a request's body a reproduce line shows; a longer one is left to a file. */
const SHOWN_BODY_BYTES = 4 * 1024;
/** The longest reproduce line: past it (a URL of many KB) the line says why it is not shown. */
const REPRODUCE_BYTES = 8 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * A curl command sending `captured`'s request to the upstream again. The request's secret headers
 * (by the one redaction list) are shown as environment references, never their values; its
 * Content-Type as sent; its other headers left out (the operations read none). Secret
 * parameters in the URL or body are `[redacted]`. A body over SHOWN_BODY_BYTES is left to a
 * file the reader makes: `--data-binary @body.json`, a shell comment saying so.
 */
function reproduceLine(upstream: Upstream, captured: Captured, redaction: Redaction): string {
  const url = `${upstream.protocol}//${upstream.host}${upstreamPath(upstream, redaction.text(captured.url))}`;
  const headers: Record<string, string> = {};
  const shown: ShownHeaders = {};
  const seen = new Set<string>();
  for (const name of captured.requestHeaderNames) {
    const lower = name.toLowerCase();
    if (seen.has(lower) || !redaction.header(name)) continue;
    seen.add(lower);
    headers[name] = '';
    shown[name] = shownHeaderValue(name, undefined);
  }
  if (captured.requestContentType !== undefined)
    headers['Content-Type'] = redaction.text(captured.requestContentType);
  const sent = { method: captured.method, url, headers };
  const body = captured.requestText;
  const size = body === undefined ? 0 : Buffer.byteLength(body);
  const line =
    body === undefined || size <= SHOWN_BODY_BYTES
      ? curlCommand(body === undefined ? sent : { ...sent, body: redaction.text(body) }, shown)
      : `${curlCommand(sent, shown)} --data-binary @body.json # its ${kb(size)} body is not shown (over ${kb(SHOWN_BODY_BYTES)}): save the request's body as body.json`;
  const length = Buffer.byteLength(line);
  if (length <= REPRODUCE_BYTES) return line;
  return `# not shown: the command would take ${kb(length)}, over the ${kb(REPRODUCE_BYTES)} of a reproduce line (a URL that long); the request is described above`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Answers a recording never keeps: they depend on the credentials or the moment, not the request. */
const NOT_RECORDED = (status: number) => status === 401 || status === 403 || status >= 500;

function decoded(answer: Buffer, encoding: string | undefined, max: number): string | undefined {
  const options = { maxOutputLength: max };
  try {
    if (encoding === undefined || encoding === 'identity') return answer.toString('utf8');
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(answer, options).toString();
    if (encoding === 'deflate') return inflateSync(answer, options).toString();
    if (encoding === 'br') return brotliDecompressSync(answer, options).toString();
  } catch {
    return undefined;
  }
  return undefined;
}

/** The exchange as the live rules read it; its body is parsed only when a rule reads it. */
function liveExchange(
  captured: Captured,
  operation: LiveExchange['operation'],
  params: LiveExchange['params'],
  text: string,
): LiveExchange {
  const headers = new Headers();
  for (const [name, value] of captured.headers) {
    try {
      headers.append(name, value);
    } catch {
      // A header value Headers refuses is no part of any rule.
    }
  }
  const exchange: LiveExchange = {
    method: captured.method,
    path: spelledPath(captured.url),
    params,
    status: captured.status,
    headers,
    text,
    body: undefined,
    ms: captured.ms,
    operation,
  };
  // A repeat of an exchange judged before is not parsed at all.
  let parsed: { value: unknown } | undefined;
  Object.defineProperty(exchange, 'body', {
    get: () => {
      parsed ??= { value: parseJson(text) };
      return parsed.value;
    },
  });
  return exchange;
}

/**
 * What the proxy makes of the traffic it forwards: each exchange of the six operations judged
 * (and recorded when asked), the others counted; the report at any moment.
 */
export class LiveTraffic {
  readonly #options: LiveTrafficOptions;
  readonly #judge: LiveJudge;
  readonly #violations: ProxyViolation[] = [];
  readonly #failures: UpstreamFailure[] = [];
  readonly #maxAnswerBytes: number;
  /** What each verdict was of, by fingerprint: a repeat comes by its fingerprint alone. */
  readonly #named = new BoundedCache<string, Named>({ maxEntries: VERDICTS });
  readonly #redaction: Redaction;
  readonly #upstream: Upstream | undefined;
  readonly #started = performance.now();
  #exchanges = 0;
  #failureCount = 0;
  #judged = 0;
  #violationCount = 0;
  #unjudged = 0;

  constructor(options: LiveTrafficOptions, maxAnswerBytes: number) {
    this.#options = options;
    this.#judge = new LiveJudge({ ...options.documents, verdicts: VERDICTS });
    this.#maxAnswerBytes = maxAnswerBytes;
    this.#redaction = new Redaction({ headers: options.redactHeaders ?? [] });
    const upstream = parseUpstream(options.upstream);
    this.#upstream = upstream.ok ? upstream.value : undefined;
  }

  failure(failure: UpstreamFailure): void {
    this.#failureCount++;
    if (this.#failures.length < 100) this.#failures.push(failure);
  }

  /**
   * Judges one forwarded exchange of the six operations (and records it when asked).
   * `fingerprint` names its verdict for `repeat` (`SentExchanges`). True when it was judged.
   */
  exchange(captured: Captured, fingerprint?: string): boolean {
    // Sent whole while its twin was still being judged: the verdict is there now.
    if (fingerprint !== undefined && this.repeat(fingerprint)) return true;
    this.#exchanges++;
    // A CORS preflight is the browser's question about the API, not a call of it: not judged.
    if (captured.method === 'OPTIONS') return false;
    const reached = readOperationRequest(
      captured.method,
      captured.url,
      captured.requestText,
      captured.requestContentType,
    );
    if (reached === undefined) return false;
    const contentType = headerOf(captured, 'content-type');
    const text =
      captured.answer === undefined || captured.requestTooLarge
        ? undefined
        : decoded(captured.answer, headerOf(captured, 'content-encoding'), this.#maxAnswerBytes);
    if (text === undefined) {
      this.#unjudged++;
      return false;
    }
    const redaction = this.#redaction;
    const params =
      reached.params === undefined ? undefined : withoutSecrets(reached.params, redaction);
    const exchange = liveExchange(captured, reached.operation, params, text);
    // A secret the request carried is kept out of a violation even where an answer echoes it.
    const secrets = reached.params === undefined ? [] : redaction.valuesIn(reached.params);
    this.#judged++;
    const reproduce =
      this.#upstream === undefined
        ? '(not shown: the upstream URL cannot be read)'
        : reproduceLine(this.#upstream, captured, redaction.withValues(secrets));
    const named = { method: exchange.method, path: exchange.path, status: exchange.status };
    for (const found of this.#judge.judge(exchange, fingerprint))
      this.#violation(found, { ...named, reproduce }, secrets);
    if (fingerprint !== undefined) this.#named.set(fingerprint, { ...named, secrets, reproduce });
    const key = requestKey(reached, redaction);
    if (
      this.#options.record !== undefined &&
      key !== undefined &&
      params !== undefined &&
      asksOperation(captured.method, reached.operation) &&
      !NOT_RECORDED(captured.status)
    ) {
      writeRecording(
        this.#options.record,
        key,
        { method: captured.method, path: exchange.path, params },
        captured.status,
        contentType ?? null,
        text,
      );
    }
    return true;
  }

  /**
   * Judges a repeat of the exchange judged under `fingerprint` (same request, same answer bytes)
   * without its bytes; false when that verdict is forgotten, and nothing was counted.
   */
  repeat(fingerprint: string): boolean {
    const named = this.#named.peek(fingerprint);
    const found = named === undefined ? undefined : this.#judge.repeat(fingerprint);
    if (named === undefined || found === undefined) return false;
    this.#exchanges++;
    this.#judged++;
    for (const violation of found) this.#violation(violation, named, named.secrets);
    return true;
  }

  #violation(
    found: LiveViolation,
    exchange: Pick<Named, 'method' | 'path' | 'status' | 'reproduce'>,
    secrets: string[],
  ): void {
    this.#violationCount++;
    const redaction = this.#redaction.withValues(secrets);
    const violation: ProxyViolation = {
      rule: found.rule,
      side: found.side,
      method: exchange.method,
      path: exchange.path,
      status: exchange.status,
      message: redaction.text(`expected ${found.expected}, got ${found.got}`),
      request: redaction.text(found.request),
      reproduce: exchange.reproduce,
    };
    if (this.#violations.length < (this.#options.keepViolations ?? 1000))
      this.#violations.push(violation);
    this.#options.onViolation?.(violation);
  }

  report(): ProxyReport {
    return reportOf({
      upstream: this.#options.upstream,
      exchanges: this.#exchanges,
      judged: this.#judged,
      unjudged: this.#unjudged,
      violationCount: this.#violationCount,
      violations: this.#violations,
      notJudgedBehind: 0,
      upstreamFailureCount: this.#failureCount,
      upstreamFailures: this.#failures,
      counts: this.#judge.counts,
      ms: Math.round(performance.now() - this.#started),
    });
  }
}
