/** Headers that belong to one connection, never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** The headers of `raw` (name, value, name, value…) but hop-by-hop ones, as pairs. */
export function kept(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  const listed = connectionTokens(raw);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !listed?.has(lower)) pairs.push([name, raw[i + 1] as string]);
  }
  return pairs;
}

/** The header names a `Connection` header lists (hop-by-hop too), if there is one. */
function connectionTokens(raw: string[]): Set<string> | undefined {
  let tokens: Set<string> | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== 'connection') continue;
    tokens ??= new Set();
    for (const token of (raw[i + 1] as string).split(',')) tokens.add(token.trim().toLowerCase());
  }
  return tokens;
}

/** How a request's body is framed: none, `Content-Length`, or `Transfer-Encoding: chunked`. */
export type Framing = 'none' | 'length' | 'chunked';

/** What the client's request headers say, found in one pass, and the headers sent on. */
export type RequestHead = {
  /**
   * The client's headers, name, value…, as undici takes them: without the hop-by-hop ones,
   * `Content-Length` and `Transfer-Encoding` (undici frames the body as it came) and `Expect`
   * (Node answered the client's 100-continue already).
   */
  headers: string[];
  contentType: string | undefined;
  framing: Framing;
  /** The `Content-Length` sent, for a body sent on as it comes. */
  length: string | undefined;
  /** A `Transfer-Encoding` other than `chunked` alone: it cannot be forwarded as sent. */
  coding: string | undefined;
};

/** Reads the request headers the proxy forwards and what they say of the body. */
export function requestHead(raw: string[]): RequestHead {
  const head: RequestHead = {
    headers: [],
    contentType: undefined,
    framing: 'none',
    length: undefined,
    coding: undefined,
  };
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    if (lower === 'content-type') head.contentType = value;
    else if (lower === 'content-length') {
      head.length = value;
      if (head.framing === 'none' && value !== '0') head.framing = 'length';
    } else if (lower === 'transfer-encoding') {
      head.framing = 'chunked';
      if (value.trim().toLowerCase() !== 'chunked') head.coding = value;
    }
  }
  for (const [name, value] of kept(raw)) {
    const lower = name.toLowerCase();
    if (lower !== 'content-length' && lower !== 'expect') head.headers.push(name, value);
  }
  return head;
}
