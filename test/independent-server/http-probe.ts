/** Small HTTP helpers for the independent server's tests. */

/**
 * An answer: `body` is the JSON sent (undefined when the text is not JSON), read as `Body`, the
 * answer the caller says it asked for.
 */
export type Reply<Body = unknown> = {
  status: number;
  type: string;
  allow: string | null;
  text: string;
  body: Body;
  ms: number;
};

/** A query string with every non-text value JSON-encoded, as the contract sends lists. */
export const query = (params: Record<string, unknown>): string =>
  new URLSearchParams(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  ).toString();

export const call = async <Body = unknown>(
  base: string,
  path: string,
  init?: RequestInit,
): Promise<Reply<Body>> => {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    allow: response.headers.get('allow'),
    text,
    body: body as Body,
    ms: performance.now() - started,
  };
};

export const get = <Body = unknown>(base: string, path: string, params: Record<string, unknown>) =>
  call<Body>(base, `${path}?${query(params)}`);

export const post = <Body = unknown>(
  base: string,
  path: string,
  body: unknown,
  type = 'application/json',
) =>
  call<Body>(base, path, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
