import type { Context, MiddlewareHandler, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { ApiError } from '../api-error.ts';
import { apiKeyGuard } from '../middleware.ts';
import { JSON_MEDIA_TYPE } from '../request-params.ts';
import { isAdminPath } from './admin-path.ts';

/** Who may call the admin API besides the same origin on a loopback name. */
export type AdminAccess = {
  /** Host names accepted besides loopback ones: `--host`, `--allowed-host`. */
  allowedHosts?: string[];
  /** Origins of apps allowed to call it from a browser: CORS for exactly these. */
  origins?: string[];
  /**
   * The app runs in a page (a Service Worker, `createMockFetch`, MSW), which only the page itself
   * can call: no Host to check, and CORS as the API's.
   */
  inPage?: boolean;
};

/** The largest admin body: a scenario is a few hundred bytes. */
export const ADMIN_BODY_BYTES = 1024 * 1024;

/**
 * The admin API is same-origin: a request must name this machine by a loopback name or an
 * allowed one (DNS rebinding sends another), come from no other origin than an allowed app's,
 * carry the API key when one is set, and send JSON when it changes something (a page may send
 * text/plain cross-origin without asking first, never JSON). Bodies are read up to
 * `ADMIN_BODY_BYTES`, never further.
 */
export function adminGuard(access: AdminAccess, apiKey: string | undefined): MiddlewareHandler {
  const key = apiKey === undefined ? undefined : apiKeyGuard(apiKey);
  const hosts = new Set((access.allowedHosts ?? []).map(hostName).filter((h) => h !== ''));
  const origins = (access.origins ?? []).map((o) => o.toLowerCase());
  const appCors = cors({
    origin: origins,
    allowMethods: ['GET', 'POST', 'DELETE'],
    allowHeaders: ['Content-Type', 'X-API-KEY'],
    maxAge: 600,
  });
  const limit = bodyLimit({
    maxSize: ADMIN_BODY_BYTES,
    onError: () => {
      throw new ApiError(
        413,
        `Admin request body too large; the limit is ${ADMIN_BODY_BYTES} bytes. Send one scenario of a few fields.`,
      );
    },
  });
  const checked = async (c: Context, next: Next): Promise<void> => {
    if (key === undefined || isPageShell(c)) await guarded(c, next, limit);
    else await key(c, () => guarded(c, next, limit));
  };
  return async (c, next) => {
    if (!isAdminPath(c.req.path)) return next();
    if (access.inPage !== true) {
      checkHost(c, hosts);
      const origin = c.req.header('origin');
      const allowed = origin !== undefined && origins.includes(origin.toLowerCase());
      if (origin !== undefined && !allowed && !isOwnOrigin(c, origin))
        throw new ApiError(403, crossOrigin(origin));
      if (c.req.method === 'OPTIONS' && !allowed)
        throw new ApiError(403, crossOrigin(origin ?? 'none'));
      if (allowed) return appCors(c, () => checked(c, next));
    }
    return checked(c, next);
  };
}

/**
 * The control page's markup, script and style: the same for everyone, holding no data, so a
 * browser's address bar (which cannot send a key) may load them; what they call needs the key.
 */
const PAGE_SHELL = new Set(['/_mock/ui', '/_mock/ui/app.js', '/_mock/ui/app.css']);

function isPageShell(c: Context): boolean {
  return c.req.method === 'GET' && PAGE_SHELL.has(c.req.path);
}

/** What any caller must meet: JSON for a call that changes something, and a bounded body. */
async function guarded(c: Context, next: Next, limit: MiddlewareHandler): Promise<void> {
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    const type = c.req.header('content-type') ?? '';
    if (!JSON_MEDIA_TYPE.test(type.trim()))
      throw new ApiError(
        415,
        `Unsupported media type ${JSON.stringify(type || 'none')}: admin calls that change something need Content-Type: application/json (with a JSON body, or none).`,
      );
  }
  // Its onError throws: it never answers by itself.
  await limit(c, next);
}

/** 403 unless the Host names this machine by a loopback name or one allowed. */
function checkHost(c: Context, allowed: Set<string>): void {
  const host = c.req.header('host') ?? new URL(c.req.url).host;
  const name = hostName(host);
  if (isLoopback(name) || allowed.has(name)) return;
  throw new ApiError(
    403,
    `Forbidden: the admin API answers requests addressed to localhost, 127.0.0.1 or [::1], got Host ${JSON.stringify(host)}. If you reach the mock by that name, start it with --allowed-host ${name || 'NAME'} (startMock({allowedHosts: [...]})).`,
  );
}

/** A Host header's or a `--host` value's name: lowercase, without port or a trailing dot, IPv6 in brackets. */
export function hostName(host: string): string {
  const bare =
    host.includes(':') && !host.startsWith('[') && host.indexOf(':') !== host.lastIndexOf(':');
  try {
    return new URL(`http://${bare ? `[${host}]` : host}`).hostname.replace(/\.$/, '');
  } catch {
    return '';
  }
}

/** localhost, `*.localhost`, 127.0.0.0/8 and [::1] (as a URL parser writes them). */
function isLoopback(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '[::1]' ||
    name === '[::ffff:7f00:1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/** Whether a request's Origin is the mock's own: a page it served, calling back. */
function isOwnOrigin(c: Context, origin: string): boolean {
  const host = c.req.header('host') ?? new URL(c.req.url).host;
  return origin.toLowerCase() === `${new URL(c.req.url).protocol}//${host.toLowerCase()}`;
}

function crossOrigin(origin: string): string {
  return `Forbidden: the admin API answers no cross-origin calls (origin ${JSON.stringify(origin)}). To let a browser app call it, start the mock with --admin-origin ORIGIN (startMock({adminOrigins: [...]})), e.g. --admin-origin http://localhost:5173.`;
}
