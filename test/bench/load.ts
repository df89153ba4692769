import autocannon from 'autocannon';

export type Load = {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
};

export type LoadRequest = { method: 'GET' | 'POST'; path: string; body?: string };

/** What a browser-based client sends: every server gets the same headers. */
export const HEADERS = {
  'x-api-key': 'bench',
  'x-user-email': 'bench@example.com',
  'content-type': 'application/json',
  'accept-encoding': 'gzip, deflate, br',
};

/** Drives a server with the same requests, cycling through them, over a fixed number of connections. */
export async function drive(
  url: string,
  requests: LoadRequest[],
  options: { connections: number; seconds: number },
): Promise<Load> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: HEADERS,
    requests: requests.map((r) => ({
      method: r.method,
      path: r.path,
      ...(r.body !== undefined && { body: r.body }),
    })),
  });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}
