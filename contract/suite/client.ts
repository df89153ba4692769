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
  body: any;
  ms: number;
};

export type ClientOptions = {
  baseUrl: string;
  headers?: Record<string, string>;
  /** Defaults to the global fetch; a function lets the suite run against `app.fetch` in process. */
  fetch?: (request: Request) => Promise<Response>;
  timeoutMs?: number;
  /**
   * Where to send requests a proxy in front would not forward (Prism answers malformed JSON
   * itself): the implementation's own base URL.
   */
  directBaseUrl?: string;
};

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

/** An HTTP client that remembers every exchange, so ENV can check all of them at the end. */
export class SuiteClient {
  readonly exchanges: Exchange[] = [];
  readonly #base: string;
  readonly #direct: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #timeoutMs: number;

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#direct = (options.directBaseUrl ?? options.baseUrl).replace(/\/+$/, '');
    this.#headers = options.headers ?? {};
    this.#fetch = options.fetch ?? ((request) => fetch(request));
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  url(path: string): string {
    return `${this.#base}${path}`;
  }

  get(path: string, params: Record<string, unknown> = {}): Promise<Exchange> {
    const query = toQuery(params);
    return this.#send(
      new Request(`${this.url(path)}${query ? `?${query}` : ''}`, { headers: this.#headers }),
      {
        method: 'GET',
        path,
        params,
      },
    );
  }

  post(path: string, params: Record<string, unknown>): Promise<Exchange> {
    return this.raw('POST', path, JSON.stringify(params), { params });
  }

  /** Any method and body, for requests the contract says must fail. */
  raw(
    method: string,
    path: string,
    body: string | undefined,
    options: { contentType?: string; params?: Record<string, unknown>; direct?: boolean } = {},
  ): Promise<Exchange> {
    const contentType = options.contentType ?? 'application/json';
    const headers =
      body === undefined ? this.#headers : { ...this.#headers, 'Content-Type': contentType };
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    const exchange: Pick<Exchange, 'method' | 'path' | 'params' | 'rawBody'> = {
      method,
      path,
      params: options.params,
    };
    if (options.params === undefined && body !== undefined) exchange.rawBody = body;
    const base = options.direct ? this.#direct : this.#base;
    return this.#send(new Request(`${base}${path}`, init), exchange);
  }

  async #send(
    request: Request,
    sent: Pick<Exchange, 'method' | 'path' | 'params' | 'rawBody'>,
  ): Promise<Exchange> {
    const started = performance.now();
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(new Request(request, { signal }));
      text = await response.text();
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${this.#timeoutMs} ms`
          : (error as Error).message;
      throw new Error(`${describeRequest(sent)}: ${reason}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const exchange: Exchange = {
      ...sent,
      status: response.status,
      headers: response.headers,
      text,
      body,
      ms: performance.now() - started,
    };
    this.exchanges.push(exchange);
    return exchange;
  }
}
