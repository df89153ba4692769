/** Small HTTP helpers for the independent server's tests. */

export type Reply = {
  status: number;
  type: string;
  allow: string | null;
  text: string;
  body: any;
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

export const call = async (base: string, path: string, init?: RequestInit): Promise<Reply> => {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  let body: any;
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
    body,
    ms: performance.now() - started,
  };
};

export const get = (base: string, path: string, params: Record<string, unknown>) =>
  call(base, `${path}?${query(params)}`);

export const post = (base: string, path: string, body: unknown, type = 'application/json') =>
  call(base, path, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
