import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.ts';
import { apiPath } from './api-path.ts';
import { allowedMethods } from './contract-doc.ts';

/** What a client asked for in `Prefer` (Prism's syntax where the two overlap). */
export type Preferences = { code?: number; delayMs?: number; example?: string };

/** What `preferMiddleware` leaves for the operations (`c.get('preferences')`); unset before it. */
export type PreferEnv = { Variables: { preferences: Preferences | undefined } };

export const MAX_DELAY_MS = 60_000;

/** The named scenarios each kind of operation offers through `Prefer: example=NAME`. */
export const EXAMPLES: Record<'grading' | 'list', Record<string, string>> = {
  grading: {
    ungradable:
      'the first requested item cannot be graded: its score is null and its error says why',
  },
  list: {
    empty: 'no item matches: an empty list, total 0',
    'last-page': 'the last page of the results, whatever page was asked for',
  },
};

/** The standard message of each status the contract documents, for answers forced by `Prefer: code=`. */
const MESSAGES: Record<number, string> = {
  400: 'Invalid parameters.',
  401: 'Unauthorized. Invalid secret key: send your key in the X-API-KEY header.',
  402: 'Over quota. This account has used its plan quota for this endpoint; wait for the next period or upgrade the plan.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'Request body too large.',
  414: 'URL too long. Send the same parameters as a JSON body with POST.',
  429: 'Too many requests. Wait for the seconds in Retry-After, then retry.',
  415: 'Unsupported media type: send the parameters as a JSON object with Content-Type: application/json.',
  500: 'Internal server error. Retry later; if it persists, report the request.',
};

/** Parses `Prefer: code=404, delay=200, example=empty` (also `;`-separated); names any bad part. */
export function parsePrefer(header: string | undefined): Preferences {
  const preferences: Preferences = {};
  if (header === undefined || header.trim() === '') return preferences;
  for (const part of header.split(/[,;]/)) {
    const [rawName, ...rest] = part.split('=');
    const name = rawName?.trim().toLowerCase() ?? '';
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      if (!/^\d{3}$/.test(value))
        throw badPrefer(`Prefer: code must be a 3-digit status, got "${value}"`);
      preferences.code = Number(value);
    } else if (name === 'delay') {
      const ms = Number(value);
      if (!/^\d+$/.test(value) || ms > MAX_DELAY_MS)
        throw badPrefer(
          `Prefer: delay must be whole milliseconds from 0 to ${MAX_DELAY_MS}, got "${value}"`,
        );
      preferences.delayMs = ms;
    } else if (name === 'example') {
      if (value === '') throw badPrefer('Prefer: example needs a name, e.g. example=empty');
      preferences.example = value;
    }
    // Other preferences (Prism's dynamic=, return=…) are not errors: a client may send them anyway.
  }
  return preferences;
}

function badPrefer(message: string): ApiError {
  return new ApiError(400, `Invalid Prefer header. ${message}.`, {
    errors: [{ param: 'Prefer', message }],
  });
}

export type PreferOptions = {
  /** The statuses the contract documents for a method and path, or undefined outside the contract. */
  documented: (method: string, path: string) => number[] | undefined;
  /** The methods a path answers, for the Allow header of a forced 405. */
  allowed: (path: string) => string;
};

/**
 * Applies `Prefer`: waits `delay` ms, answers a forced documented `code` with a valid envelope,
 * and leaves `example` to the operations (read back with `preferencesOf`).
 */
export function preferMiddleware(options: PreferOptions): MiddlewareHandler<PreferEnv> {
  return async (c, next) => {
    const preferences = parsePrefer(c.req.header('prefer'));
    c.set('preferences', preferences);
    if (preferences.delayMs)
      await new Promise((resolve) => setTimeout(resolve, preferences.delayMs));
    const code = preferences.code;
    if (code !== undefined && code !== 200) {
      const path = new URL(c.req.url).pathname;
      const statuses = options.documented(c.req.method, apiPath(path));
      if (statuses === undefined || !statuses.includes(code)) {
        const allowed = (statuses ?? []).join(', ');
        throw badPrefer(
          `Prefer: code=${code} is not a status this operation documents; use one of ${allowed}`,
        );
      }
      throw forcedError(code, path, `because the request sent Prefer: code=${code}`);
    }
    await next();
  };
}

/** The error envelope of a status forced on purpose, with the headers that status calls for. */
export function forcedError(code: number, path: string, why: string): ApiError {
  const message = `${MESSAGES[code] ?? 'Error.'} (Answered ${why}.)`;
  const headers: Record<string, string> =
    code === 405 ? { Allow: allowedMethods(path) } : code === 429 ? { 'Retry-After': '1' } : {};
  return new ApiError(code, message, { headers });
}

export function preferencesOf(c: Context<PreferEnv>): Preferences {
  return c.get('preferences') ?? {};
}
