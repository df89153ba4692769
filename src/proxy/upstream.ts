/** Where the proxy forwards: an origin and the base path every request goes under. */
export type Upstream = {
  /** As given, without a trailing slash: `https://staging.example.com/v1`. */
  url: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** The path part, without a trailing slash: `/v1`, or `` for the root. */
  basePath: string;
  /** `host:port` as the upstream expects it in `Host`. */
  host: string;
};

export type UpstreamParse = { ok: true; value: Upstream } | { ok: false; error: string };

const EXAMPLE = 'e.g. https://staging.example.com/v1 or http://127.0.0.1:4010';

/** Reads `--upstream`: an absolute http(s) URL with a host, no query, fragment or credentials. */
export function parseUpstream(text: string | undefined): UpstreamParse {
  if (text === undefined || text.trim() === '')
    return { ok: false, error: `--upstream is required: the deployment to forward to, ${EXAMPLE}` };
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, error: `--upstream must be an absolute URL, ${EXAMPLE}; got "${text}"` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      ok: false,
      error: `--upstream must be an http:// or https:// URL, ${EXAMPLE}; got "${url.protocol}"`,
    };
  if (url.username !== '' || url.password !== '')
    return {
      ok: false,
      error:
        '--upstream must not carry credentials in the URL: send them as headers from your client, which the proxy forwards',
    };
  if (url.search !== '' || url.hash !== '')
    return {
      ok: false,
      error: `--upstream takes the base URL only, without ?query or #fragment, ${EXAMPLE}; got "${text}"`,
    };
  const basePath = url.pathname.replace(/\/+$/, '');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return {
    ok: true,
    value: {
      url: `${url.origin}${basePath}`,
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      basePath,
      host: url.host,
    },
  };
}

/**
 * The upstream path of a request: under the base path, unless the client already put it there
 * (`/v1/profiles/searching` with an upstream ending in `/v1` is not sent to `/v1/v1/…`).
 */
export function upstreamPath(upstream: Upstream, requestUrl: string): string {
  const base = upstream.basePath;
  if (
    base === '' ||
    requestUrl === base ||
    requestUrl.startsWith(`${base}/`) ||
    requestUrl.startsWith(`${base}?`)
  )
    return requestUrl;
  return `${base}${requestUrl.startsWith('/') ? '' : '/'}${requestUrl}`;
}
