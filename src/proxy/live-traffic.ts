import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import {
  type LiveExchange,
  LiveJudge,
  type LiveViolation,
} from '../../contract/suite/live-rules.ts';
import { remember } from '../../contract/suite/seen-answers.ts';
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
};

/** What a verdict was of, and the secrets its request carried (kept out of its violations). */
type Named = Pick<LiveExchange, 'method' | 'path' | 'status'> & { secrets: string[] };

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
  readonly #judge = new LiveJudge({ verdicts: VERDICTS });
  readonly #violations: ProxyViolation[] = [];
  readonly #failures: UpstreamFailure[] = [];
  readonly #maxAnswerBytes: number;
  /** What each verdict was of, by fingerprint: a repeat comes by its fingerprint alone. */
  readonly #named = new Map<string, Named>();
  readonly #redaction: Redaction;
  #exchanges = 0;
  #judged = 0;
  #violationCount = 0;
  #unjudged = 0;

  constructor(options: LiveTrafficOptions, maxAnswerBytes: number) {
    this.#options = options;
    this.#maxAnswerBytes = maxAnswerBytes;
    this.#redaction = new Redaction({ headers: options.redactHeaders ?? [] });
  }

  failure(failure: UpstreamFailure): void {
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
    for (const found of this.#judge.judge(exchange, fingerprint))
      this.#violation(found, exchange, secrets);
    if (fingerprint !== undefined) {
      const { method, path, status } = exchange;
      remember(this.#named, fingerprint, { method, path, status, secrets }, VERDICTS);
    }
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
    const named = this.#named.get(fingerprint);
    const found = named === undefined ? undefined : this.#judge.repeat(fingerprint);
    if (named === undefined || found === undefined) return false;
    this.#exchanges++;
    this.#judged++;
    for (const violation of found) this.#violation(violation, named, named.secrets);
    return true;
  }

  #violation(
    found: LiveViolation,
    exchange: Pick<LiveExchange, 'method' | 'path' | 'status'>,
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
      upstreamFailures: this.#failures,
      counts: this.#judge.counts,
    });
  }
}
