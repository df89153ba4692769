import { type Context, Hono } from 'hono';
import type { Kind } from '../domain/kinds.ts';
import {
  type Answer,
  gradingOperation,
  scoringOperation,
  searchOperation,
} from '../domain/operations.ts';
import type { RawParams } from '../domain/params.ts';
import type { Result } from '../domain/result.ts';
import type { Store } from '../domain/store.ts';
import { ApiError } from './api-error.ts';
import { paramsFromBody, paramsFromQuery } from './request-params.ts';

type Operation = (store: Store, kind: Kind, raw: RawParams) => Result<Answer>;

export type ResourceOptions = { store: Store; maxJsonDepth: number };

/**
 * The routes of one resource (`/profiles` or `/jobs`): grading answers GET, searching and scoring
 * answer GET and POST; any other method on those paths is a 405 naming the allowed ones.
 */
export function resourceApp(kind: Kind, options: ResourceOptions): Hono {
  const app = new Hono();
  const answer = (c: Context, operation: Operation, raw: RawParams) => {
    const result = operation(options.store, kind, raw);
    if (!result.ok) throw ApiError.invalid(result.errors);
    const { message, data, meta } = result.value;
    return c.json(
      meta === undefined ? { code: 200, message, data } : { code: 200, message, data, meta },
      200,
    );
  };
  const fromQuery = (c: Context) => paramsFromQuery(new URL(c.req.url));

  app.get('/grading', (c) => answer(c, gradingOperation, fromQuery(c)));
  app.all('/grading', methodNotAllowed('GET'));
  for (const [path, operation] of [
    ['/searching', searchOperation],
    ['/scoring', scoringOperation],
  ] as const) {
    app.get(path, (c) => answer(c, operation, fromQuery(c)));
    app.post(path, async (c) =>
      answer(c, operation, await paramsFromBody(c, options.maxJsonDepth)),
    );
    app.all(path, methodNotAllowed('GET, POST'));
  }
  return app;
}

function methodNotAllowed(allow: string) {
  return (c: Context): never => {
    throw new ApiError(
      405,
      `Method not allowed: ${c.req.method} ${new URL(c.req.url).pathname}. Allowed: ${allow}.`,
      {
        headers: { Allow: allow },
      },
    );
  };
}
