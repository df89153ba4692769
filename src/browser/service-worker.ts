import { MAIN_RESOURCES, ROUTES } from '../hr/routes.ts';
import { createMockFetch, type MockFetch, type MockFetchOptions } from './mock-fetch.ts';

/** The part of a `FetchEvent` the mock uses. */
export type MockFetchEvent = {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
};

/**
 * The part of a `ServiceWorkerGlobalScope` the mock uses: written out, because the project's
 * types are the DOM's and the worker's global scope cannot be declared beside them.
 */
export type ServiceWorkerScope = {
  readonly location: { readonly origin: string };
  addEventListener(type: 'fetch', listener: (event: MockFetchEvent) => void): void;
};

export type ServiceWorkerMockOptions = MockFetchOptions & {
  /**
   * Which requests the mock answers; default: the API paths under `baseUrl` (on its origin when
   * it names one, and on the worker's own) and the admin API on the worker's origin.
   */
  match?: (url: URL) => boolean;
};

/**
 * Answers the page's API requests from inside its Service Worker: each `fetch` event that
 * `match` accepts gets the mock's answer, and every other request goes to the network untouched.
 * Returns the `MockFetch` it uses.
 */
export function installServiceWorkerMock(
  scope: ServiceWorkerScope,
  options: ServiceWorkerMockOptions = {},
): MockFetch {
  const { match, ...fixtures } = options;
  const mockFetch = createMockFetch(fixtures);
  const { origin, path } = mockFetch.base;
  const own = scope.location.origin;
  // The API on its own origin when baseUrl names one; the admin API on the page's, at its root.
  const accepts =
    match ??
    ((url: URL) =>
      isMockedUrl(url, own, path) || (origin !== undefined && isMockedUrl(url, origin, path)));
  scope.addEventListener('fetch', (event) => {
    // Not calling respondWith is how a worker hands a request back to the network.
    if (accepts(new URL(event.request.url))) event.respondWith(mockFetch(event.request));
  });
  return mockFetch;
}

/** The admin API, at the origin's root whatever the base path, as on `hrmock serve`'s port. */
const ADMIN = /^\/_mock\/(scenarios(\/[^/]*)?|requests|reset)$/;

/**
 * Whether the mock answers this URL: on `origin`, under `basePath`, anything under a resource of
 * the route table (`/profiles/…`, `/jobs/…`), its other paths (the singular grading ones),
 * `/_mock/target`, `/openapi.json` or `/openapi.yaml`; and the admin API (`/_mock/scenarios`,
 * `/_mock/requests`, `/_mock/reset`) at the root. Pages, scripts, styles and other origins are
 * not its business.
 */
export function isMockedUrl(url: URL, origin: string, basePath = '/'): boolean {
  if (url.origin !== origin) return false;
  if (ADMIN.test(url.pathname)) return true;
  const base = `/${basePath.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  if (!url.pathname.startsWith(`${base}/`)) return false;
  const path = url.pathname.slice(base.length);
  return MAIN_RESOURCES.some((r) => path.startsWith(`${r}/`)) || MOCKED_PATHS.has(path);
}

const MOCKED_PATHS = new Set([
  ...ROUTES.map((r) => r.path),
  '/_mock/target',
  '/openapi.json',
  '/openapi.yaml',
]);
