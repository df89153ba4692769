import type { MockFetch } from './mock-fetch.ts';

/**
 * An MSW 2 resolver answering with the mock: `http.all('*\/profiles/*', mswResolver(mockFetch))`.
 * A `reset` or `hang` fault becomes `Response.error()`, which MSW turns into a network error
 * (a rejection it would otherwise answer as a 500).
 */
export function mswResolver(
  mockFetch: MockFetch,
): (info: { request: Request }) => Promise<Response> {
  return ({ request }) => mockFetch(request).catch(() => Response.error());
}
