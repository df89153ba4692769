import { getPath } from 'hono/utils/url';

/**
 * The path the app routes a request by: Hono's (percent escapes decoded) with repeated slashes
 * read as one, as web servers do (a base URL ending in a slash joined to a path starting with one
 * is a client's everyday slip). The app's router and everything that must agree with it use this.
 */
export function requestPath(request: { url: string }): string {
  return getPath(request as Request).replace(/\/{2,}/g, '/');
}

/**
 * Whether a routed path is the admin API's: `/_mock` and everything under it but `/_mock/target`,
 * which is served with the API's documents (public, as the API is).
 */
export function isAdminPath(path: string): boolean {
  if (path.charCodeAt(1) !== 95 || !path.startsWith('/_mock')) return false;
  return (path.length === 6 || path.charCodeAt(6) === 47) && path !== '/_mock/target';
}

/**
 * Whether a raw request target (node's `req.url`) reaches the admin API, however it is spelled:
 * `//_mock/…`, `/./_mock/…`, `/x/../_mock/…`, `/%5Fmock/…`, or the absolute form. A target with
 * neither `_mock` nor a disguise in its path is told apart without parsing it (or allocating).
 */
export function isAdminTarget(target: string): boolean {
  const query = target.indexOf('?');
  const end = query < 0 ? target.length : query;
  const named = target.indexOf('_mock');
  if ((named < 0 || named >= end) && !disguised(target, end)) return false;
  return isAdminPath(targetPath(target));
}

/** Whether the path holds what a URL parser or Hono turns into other characters: `%`, `\`, tab, newline. */
function disguised(target: string, end: number): boolean {
  for (let at = 0; at < end; at++) {
    const code = target.charCodeAt(at);
    if (code === 37 || code === 92 || code === 9 || code === 10 || code === 13) return true;
  }
  return false;
}

/** The path a raw request target is routed by: parsed as the node adapter parses it, then routed. */
export function targetPath(target: string): string {
  const absolute = /^https?:\/\//i.test(target);
  let href: string;
  try {
    href = new URL(absolute ? target : `http://localhost${target}`).href;
  } catch {
    return target;
  }
  return requestPath({ url: href });
}
