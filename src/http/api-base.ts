/** Where the app's API lives: an origin (absent: any origin, or the page's own) and a path prefix. */
export type ApiBase = {
  /** `https://api.example.com`, or undefined when the base URL is a path alone. */
  readonly origin: string | undefined;
  /** The path prefix without a trailing slash: `/v1`, or `''` at the root. */
  readonly path: string;
};

/**
 * Reads the app's API base URL: an absolute http(s) URL (`https://api.example.com/v1`) or a path
 * (`/v1`). `basePath`, the older option, is a path only; giving both is refused.
 */
export function apiBase(baseUrl: string | undefined, basePath?: string): ApiBase {
  if (baseUrl !== undefined && basePath !== undefined)
    throw new TypeError(
      `give baseUrl or basePath, not both: baseUrl ${JSON.stringify(baseUrl)} already names the path`,
    );
  const given = baseUrl ?? basePath;
  if (given === undefined || given === '' || /^\/+$/.test(given))
    return { origin: undefined, path: '' };
  const trim = (path: string) => `/${path.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  if (basePath !== undefined || given.startsWith('/')) {
    if (/[?#]/.test(given)) throw badBase(given);
    return { origin: undefined, path: trim(given) };
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw badBase(given);
  }
  if (!/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '') throw badBase(given);
  return { origin: url.origin, path: trim(url.pathname) };
}

function badBase(given: string): TypeError {
  return new TypeError(
    `baseUrl must be the API's base URL as the app calls it, an http(s) URL or a path, e.g. https://api.example.com/v1 or /v1, got ${JSON.stringify(given)}`,
  );
}
