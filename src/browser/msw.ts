import { MAIN_RESOURCES, ROUTES } from '../hr/routes.ts';
import type { MockFetch } from './mock-fetch.ts';

/** What an MSW 2 resolver gets (the part the mock reads) and answers. */
export type MswResolver = (info: { request: Request }) => Promise<Response>;

/**
 * The part of MSW's `http` namespace the handlers are made with: pass `http` from 'msw'. Taken
 * as an argument so that `hrmock/browser` neither bundles MSW nor requires it.
 */
export type MswHttp<Handler> = {
  all: (path: string, resolver: MswResolver) => Handler;
  get: (path: string, resolver: MswResolver) => Handler;
};

/**
 * An MSW 2 resolver answering with the mock: `http.all('*\/profiles/*', mswResolver(mockFetch))`.
 * A `reset` or `hang` fault becomes `Response.error()`, which MSW turns into a network error
 * (a rejection it would otherwise answer as a 500).
 */
export function mswResolver(mockFetch: MockFetch): MswResolver {
  return ({ request }) => mockFetch(request).catch(() => Response.error());
}

/**
 * MSW 2 handlers for every path the mock answers, under the `baseUrl` it was created with
 * (`https://api.example.com/v1/profiles/*`, …; a path alone or none: on any origin), each
 * answering through `mswResolver`, so a fault is a network error:
 * `setupWorker(...mswHandlers(http, mockFetch))`.
 */
export function mswHandlers<Handler>(http: MswHttp<Handler>, mockFetch: MockFetch): Handler[] {
  const at = (path: string) => `${mockFetch.base.origin ?? '*'}${mockFetch.base.path}${path}`;
  const resolver = mswResolver(mockFetch);
  const others = ROUTES.map((r) => r.path).filter(
    (path) => !MAIN_RESOURCES.some((resource) => path.startsWith(`${resource}/`)),
  );
  return [
    ...MAIN_RESOURCES.map((resource) => http.all(at(`${resource}/*`), resolver)),
    ...[...new Set(others)].map((path) => http.all(at(path), resolver)),
    ...['/_mock/target', '/openapi.json', '/openapi.yaml'].map((path) =>
      http.get(at(path), resolver),
    ),
  ];
}
