import { type Context, Hono } from 'hono';
import { envelopeOf } from '../hr/answer-json.ts';
import type { Answer, Operation } from '../hr/operations.ts';
import type { RawParams } from '../hr/params.ts';
import { ROUTES } from '../hr/routes.ts';
import type { Store } from '../store/store.ts';
import { WARNING_HEADER } from './api-cors.ts';
import { ApiError } from './api-error.ts';
import { EXAMPLES, type PreferEnv, preferencesOf } from './prefer.ts';
import { paramsFromBody, paramsFromQuery } from './request-params.ts';
import { type Documented, documentedParams, unknownParamsWarning } from './unknown-params.ts';

export type ResourceOptions = {
  store: () => Store;
  maxJsonDepth: number;
};

const JSON_TYPE = { 'Content-Type': 'application/json' };

/**
 * The routes of one resource of the route table (`/profiles`, or `/profile` of the SDKs'
 * singular grading), each answering its methods; any other method on those paths is a 405
 * naming the allowed ones.
 */
export function resourceApp(resource: string, options: ResourceOptions): Hono<PreferEnv> {
  const app = new Hono<PreferEnv>();
  const routes = ROUTES.filter((r) => r.resource === resource);
  const kind = routes[0]?.kind;
  if (kind === undefined) throw new Error(`no route under ${resource}`);
  const run = (operation: Operation, raw: RawParams): Answer => {
    const result = operation(options.store(), kind, raw);
    if (!result.ok) throw ApiError.invalid(result.errors);
    return result.value;
  };
  const answer = (
    c: Context<PreferEnv>,
    operation: Operation,
    raw: RawParams,
    group: 'grading' | 'list',
    names: () => Documented,
  ) => {
    // Named whatever the answer, an error included: the status never changes for it.
    const warning = unknownParamsWarning(raw, names());
    if (warning !== undefined) c.header(WARNING_HEADER, warning);
    const example = preferencesOf(c).example;
    if (example === undefined)
      return c.body(run(operation, raw).body() as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
    return c.body(
      scenario(
        example,
        group,
        () => run(operation, raw),
        raw,
        (r) => run(operation, r),
      ),
      200,
      JSON_TYPE,
    );
  };
  const fromQuery = (c: Context) => paramsFromQuery(new URL(c.req.url));

  for (const { path: routePath, action, operation, methods } of routes) {
    const path = `/${action}`;
    const group = action === 'grading' ? 'grading' : 'list';
    if (methods.includes('GET')) {
      // Read from the contract on the first request, not when the app is made (start-up).
      const names = () => documentedParams('GET', routePath);
      app.get(path, (c) => answer(c, operation, fromQuery(c), group, names));
    }
    if (methods.includes('POST')) {
      const names = () => documentedParams('POST', routePath);
      app.post(path, async (c) =>
        answer(c, operation, await paramsFromBody(c, options.maxJsonDepth), group, names),
      );
    }
    app.all(path, methodNotAllowed(methods.join(', ')));
  }
  return app;
}

/**
 * A named scenario (`Prefer: example=NAME`), made from the real answer so that bad input still
 * gets its 400 and the shape stays the contract's.
 */
function scenario(
  name: string,
  group: 'grading' | 'list',
  answer: () => Answer,
  raw: RawParams,
  rerun: (raw: RawParams) => Answer,
): string {
  if (!(name in EXAMPLES[group])) {
    const known = Object.entries(EXAMPLES[group])
      .map(([n, what]) => `${n} (${what})`)
      .join('; ');
    throw new ApiError(
      400,
      `Invalid Prefer header. No example "${name}" for this operation; use one of: ${known}.`,
      {
        errors: [
          {
            param: 'Prefer',
            message: `example=${name} is not offered here; use ${Object.keys(EXAMPLES[group]).join(' or ')}`,
          },
        ],
      },
    );
  }
  const envelope = envelopeOf(answer());
  const data = envelope.data as Record<string, unknown[]>;
  if (name === 'ungradable') {
    if ((data.scores?.length ?? 0) > 0) {
      (data.scores as unknown[])[0] = null;
      (data.errors as unknown[])[0] =
        'This item cannot be graded (answered because the request sent Prefer: example=ungradable).';
    }
  } else if (name === 'empty') {
    for (const key of Object.keys(data)) data[key] = [];
    envelope.meta = { page: envelope.meta?.page ?? 1, maxPage: 1, count: 0, total: 0 };
  } else if (name === 'last-page') {
    const last = new Map(raw);
    last.set('page', String(Math.max(1, envelope.meta?.maxPage ?? 1)));
    return rerun(last).json;
  }
  return JSON.stringify(envelope);
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
