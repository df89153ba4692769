import { type Upstream, upstreamPath } from './upstream.ts';

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

/** What the client's request headers say of its body and type, found in one pass. */
export type RequestHead = {
  head: string;
  contentType: string | undefined;
  framing: 'none' | 'length' | 'chunked';
};

/** The request line and headers sent upstream: the client's, hop-by-hop ones and Host replaced. */
export function requestHead(
  upstream: Upstream,
  method: string,
  url: string,
  raw: string[],
): RequestHead {
  let head = `${method} ${upstreamPath(upstream, url)} HTTP/1.1\r\nHost: ${upstream.host}\r\n`;
  let contentType: string | undefined;
  let framing: RequestHead['framing'] = 'none';
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = (raw[i] as string).toLowerCase();
    if (lower === 'content-type') contentType = raw[i + 1];
    else if (lower === 'content-length' && framing === 'none' && raw[i + 1] !== '0')
      framing = 'length';
    else if (lower === 'transfer-encoding') framing = 'chunked';
  }
  for (const [name, value] of kept(raw)) head += `${name}: ${value}\r\n`;
  if (framing === 'chunked') head += 'Transfer-Encoding: chunked\r\n';
  return { head: `${head}\r\n`, contentType, framing };
}
