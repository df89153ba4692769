/** A redirect the suite will not follow: it would carry the run's headers to another origin. */
export class CrossOriginRedirect extends Error {
  override name = 'CrossOriginRedirect';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_HOPS = 5;

/**
 * `fetch` that follows redirects only within the origin it started at. The run's headers carry
 * secrets (`X-API-KEY`), and fetch drops only `Authorization` when a redirect leaves the origin:
 * a redirect to another origin is refused with `CrossOriginRedirect`, never followed.
 */
export async function fetchWithinOrigin(
  send: (request: Request) => Promise<Response>,
  url: string,
  init: RequestInit,
): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  let method = init.method ?? 'GET';
  let body = init.body;
  let headers = new Headers(init.headers);
  for (let hop = 0; ; hop++) {
    const request = new Request(current, { ...init, method, headers, body, redirect: 'manual' });
    const response = await send(request);
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, current);
    if (next.origin !== origin)
      throw new CrossOriginRedirect(
        `${method} ${new URL(current).pathname} was redirected (${response.status}) to another origin, ${next.origin}; hrmock does not send its headers there. Point --base-url at ${next.origin} if that is the deployment`,
      );
    if (hop >= MAX_HOPS)
      throw new CrossOriginRedirect(`more than ${MAX_HOPS} redirects from ${url}`);
    // As browsers do: 303, and 301/302 after a POST, turn into a GET without the body.
    if (response.status === 303 || (method === 'POST' && response.status <= 302)) {
      method = 'GET';
      body = undefined;
      headers = new Headers(headers);
      headers.delete('content-type');
    }
    current = next.href;
  }
}
