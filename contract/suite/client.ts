import { parseAnswer } from './answer-json.ts';
import { Pace, retryAfterMs, sleep } from './pace.ts';
import { curlCommand, type SentRequest, type ShownHeaders, shownHeaderValue } from './reproduce.ts';
import { CrossOriginRedirect, fetchWithinOrigin } from './same-origin.ts';

/** One request the suite sent and what came back, kept as evidence. */
export type Exchange = {
  method: 'GET' | 'POST' | string;
  /** The path relative to the base URL, e.g. `/profiles/grading`. */
  path: string;
  /** Parameters as the suite meant them (query or body), for reports and for ENV. */
  params: Record<string, unknown> | undefined;
  /** What was sent when it was not a JSON object of parameters (malformed bodies). */
  rawBody?: string;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: unknown;
  /** Why `body` is undefined when the text was refused unparsed (`answer nested deeper than 64 levels`). */
  notJson?: string;
  ms: number;
  /** The request as sent, for a reproducer (absent for an exchange the proxy saw). */
  sent?: SentRequest;
};

/**
 * An exchange as the run keeps it once the rules have had it, for coverage, latency and PRISM:
 * without the answer's text and body, so that a run holds no more than the answers in use.
 */
export type KeptExchange = Omit<Exchange, 'text' | 'body' | 'notJson'>;

/** One request to send: any method, a query string as given, a body as given. */
export type Outgoing = {
  method: string;
  path: string;
  /** The encoded query string, without `?` (may repeat a name). */
  query?: string;
  body?: string;
  contentType?: string;
  /** Parameters as meant, for reports and coverage. */
  params?: Record<string, unknown>;
  /** Without the run's headers (credentials). */
  bare?: boolean;
  /** To the implementation's own base URL, past a proxy in front. */
  direct?: boolean;
};

export type ClientOptions = {
  baseUrl: string;
  headers?: Record<string, string>;
  /** Defaults to the global fetch; a function lets the suite run against `app.fetch` in process. */
  fetch?: (request: Request) => Promise<Response>;
  /** How long one request may take, headers and body (default 10 s). */
  timeoutMs?: number;
  /** How long the whole run may take; requests after it fail at once. */
  deadlineMs?: number;
  /** When the run started (`performance.now()`), for the deadline; default: the client's creation. */
  startedAt?: number;
  /** The most bytes read of one answer (default 5 MiB); a longer one fails its request. */
  maxAnswerBytes?: number;
  /**
   * Where to send requests a proxy in front would not forward (Prism answers malformed JSON
   * itself): the implementation's own base URL.
   */
  directBaseUrl?: string;
  /** The pace of the whole run, shared with anything else that sends (default: no limit). */
  pace?: Pace;
  /** How reproducers show each run header (default: an environment reference named after it). */
  shownHeaders?: ShownHeaders;
};

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** undici's error for a connection closed before any answer came on it. */
function closedUnanswered(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error && 'code' in cause && cause.code === 'UND_ERR_SOCKET';
}

/** A request that got no usable answer: it timed out, the connection failed, or it was too long. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
  readonly request: string;
  readonly reason: string;
  /** A curl command that sends the request again, when it was built. */
  readonly reproduce: string | undefined;
  constructor(request: string, reason: string, reproduce?: string) {
    super(`${request}: ${reason}`);
    this.request = request;
    this.reason = reason;
    this.reproduce = reproduce;
  }
}

/** An answer longer than the client reads. */
export class TooLong extends Error {
  override name = 'TooLong';
}

/** The answer's text, read up to `max` bytes: a 10 MB answer is not held whole to be refused. */
export async function readCapped(response: Response, max: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw new TooLong(`the answer is over ${Math.round(max / 1024)} KiB; stopped reading there`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** Query-string form of parameters: lists and objects as one JSON-encoded value, as the contract says. */
export function toQuery(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    search.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return search.toString();
}

/** A short, header-free description of a request for a report. */
export function describeRequest(
  exchange: Pick<Exchange, 'method' | 'path' | 'params' | 'rawBody'>,
): string {
  const shorten = (s: string) => (s.length > 300 ? `${s.slice(0, 297)}...` : s);
  if (exchange.rawBody !== undefined)
    return `${exchange.method} ${exchange.path} body ${shorten(exchange.rawBody)}`;
  if (exchange.method === 'GET')
    return `GET ${exchange.path}?${shorten(decodeURIComponent(toQuery(exchange.params ?? {})))}`;
  return `${exchange.method} ${exchange.path} ${shorten(JSON.stringify(exchange.params ?? {}))}`;
}

/**
 * An HTTP client that remembers every exchange, its answer's text and body left out: ENV judges
 * each answer as it comes (`onAnswer`), coverage and latency need only the rest.
 */
export class SuiteClient {
  readonly exchanges: KeptExchange[] = [];
  readonly #listeners = new Set<(exchange: Exchange) => void>();
  readonly #base: string;
  readonly #direct: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #timeoutMs: number;
  readonly #deadline: number;
  readonly #deadlineMs: number;
  readonly #maxBytes: number;
  readonly #pace: Pace;
  readonly #shown: ShownHeaders;
  #rateLimited = 0;

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#direct = (options.directBaseUrl ?? options.baseUrl).replace(/\/+$/, '');
    this.#headers = options.headers ?? {};
    this.#fetch = options.fetch ?? ((request) => fetch(request));
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#deadlineMs = options.deadlineMs ?? Number.POSITIVE_INFINITY;
    this.#deadline = (options.startedAt ?? performance.now()) + this.#deadlineMs;
    this.#maxBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.#pace = options.pace ?? new Pace('unlimited');
    this.#shown = Object.fromEntries(
      Object.keys(this.#headers).map((name) => [
        name,
        options.shownHeaders?.[name] ?? shownHeaderValue(name, undefined),
      ]),
    );
  }

  url(path: string): string {
    return `${this.#base}${path}`;
  }

  get(path: string, params: Record<string, unknown> = {}): Promise<Exchange> {
    return this.send({ method: 'GET', path, query: toQuery(params), params });
  }

  post(path: string, params: Record<string, unknown>): Promise<Exchange> {
    return this.raw('POST', path, JSON.stringify(params), { params });
  }

  /** Any method and body, for requests the contract says must fail. */
  raw(
    method: string,
    path: string,
    body: string | undefined,
    options: {
      contentType?: string;
      params?: Record<string, unknown>;
      direct?: boolean;
      query?: string;
    } = {},
  ): Promise<Exchange> {
    return this.send({ method, path, body, ...options });
  }

  /** A curl command that sends this exchange's request again, secrets as environment references. */
  reproduce(exchange: { sent: SentRequest }): string {
    return curlCommand(exchange.sent, this.#shown);
  }

  /** Hands each later answer to `listener` as it comes, before the rule that asked; returns the stop. */
  onAnswer(listener: (exchange: Exchange) => void): () => void {
    const own = (exchange: Exchange) => listener(exchange);
    this.#listeners.add(own);
    return () => this.#listeners.delete(own);
  }

  /** Answers that were 429 and waited out; never part of `exchanges`. */
  get rateLimited(): number {
    return this.#rateLimited;
  }

  /** Sends one request; a 429 is waited out (its Retry-After, within the deadline) and sent again. */
  send(out: Outgoing): Promise<Exchange> {
    const base = out.direct ? this.#direct : this.#base;
    const headers: Record<string, string> = out.bare ? {} : { ...this.#headers };
    if (out.body !== undefined) headers['Content-Type'] = out.contentType ?? 'application/json';
    const url = `${base}${out.path}${out.query ? `?${out.query}` : ''}`;
    const sent: SentRequest = { method: out.method, url, headers };
    if (out.body !== undefined) sent.body = out.body;
    const described: Pick<Exchange, 'method' | 'path' | 'params' | 'rawBody'> = {
      method: out.method,
      path: out.path,
      params: out.params,
    };
    if (out.params === undefined && out.body !== undefined) described.rawBody = out.body;
    return this.#send(sent, described);
  }

  async #send(
    wire: SentRequest,
    sent: Pick<Exchange, 'method' | 'path' | 'params' | 'rawBody'>,
  ): Promise<Exchange> {
    for (;;) {
      await this.#pace.take();
      const exchange = await this.#once(wire, sent);
      if (exchange.status !== 429) {
        for (const listener of this.#listeners) listener(exchange);
        const { text: _text, body: _body, notJson: _why, ...kept } = exchange;
        this.exchanges.push(kept);
        return exchange;
      }
      // Asked to slow down: wait as told and send again, unless that passes the deadline.
      const waitMs = retryAfterMs(exchange.headers.get('retry-after'));
      if (performance.now() + waitMs >= this.#deadline)
        throw new NoAnswer(
          describeRequest(sent),
          `answered 429 with Retry-After ${seconds(waitMs)}, past the run's deadline of ${seconds(this.#deadlineMs)}`,
          curlCommand(wire, this.#shown),
        );
      this.#rateLimited++;
      await sleep(waitMs);
    }
  }

  async #once(
    wire: SentRequest,
    sent: Pick<Exchange, 'method' | 'path' | 'params' | 'rawBody'>,
  ): Promise<Exchange> {
    const started = performance.now();
    const left = this.#deadline - started;
    // Made only for a request that gets no answer: most do, and quoting every one is not free.
    const reproduce = () => curlCommand(wire, this.#shown);
    if (left <= 0) {
      throw new NoAnswer(
        describeRequest(sent),
        `not sent: the run's deadline of ${seconds(this.#deadlineMs)} passed`,
        reproduce(),
      );
    }
    const waitMs = Math.ceil(Math.min(this.#timeoutMs, left));
    // The wait ends when the timer says, whatever fetch does with the abort: Node 20's fetch
    // follows a Request's signal through a weak reference, and after a garbage collection an
    // abort could be lost, leaving a slow server waited on to its answer (a run of 6 s took 10).
    // The abort still goes to fetch, to free the connection.
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const reason = new DOMException('no answer in time', 'TimeoutError');
        controller.abort(reason);
        reject(reason);
      }, waitMs);
    });
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = { method: wire.method, headers: wire.headers };
      if (wire.body !== undefined) init.body = wire.body;
      const attempt = () =>
        fetchWithinOrigin(this.#fetch, wire.url, { ...init, signal: controller.signal });
      // A kept-alive connection the server closed as this request went out (its idle timeout
      // ending at that moment) never reached it: a GET is sent once more, as browsers do.
      response = await Promise.race([
        attempt().catch((error: unknown) => {
          if (closedUnanswered(error) && (wire.method === 'GET' || wire.method === 'HEAD'))
            return attempt();
          throw error;
        }),
        late,
      ]);
      text = await Promise.race([readCapped(response, this.#maxBytes), late]);
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer in ${seconds(waitMs)}${waitMs < this.#timeoutMs ? " (the run's deadline)" : ''}`
          : error instanceof TooLong || error instanceof CrossOriginRedirect
            ? error.message
            : `no answer: ${String((error as Error).cause ?? (error as Error).message)}`;
      throw new NoAnswer(describeRequest(sent), reason, reproduce());
    } finally {
      clearTimeout(timer);
    }
    const ms = performance.now() - started;
    // An answer nested too deep is never parsed: it is not JSON to the rules, and says why.
    const json = parseAnswer(text);
    const exchange: Exchange = {
      ...sent,
      status: response.status,
      headers: response.headers,
      text,
      body: json.ok ? json.value : undefined,
      ms,
      sent: wire,
    };
    if (!json.ok && json.why !== undefined) exchange.notJson = json.why;
    return exchange;
  }
}
