import { expect } from 'vitest';
import { loadContract } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import { buildFixtures, type Fixtures } from '../../mocks/build-fixtures.ts';
import { type AppOptions, createApp, type HrmockApp } from '../../src/http/app.ts';

export const validator = new ContractValidator(loadContract());

const cache = new Map<string, { app: HrmockApp; fixtures: Fixtures }>();

/** A mock app over seeded fixtures, built once per size and options and shared by the tests. */
export function mockApp(
  options: Partial<AppOptions> & { profiles?: number; jobs?: number; seed?: number } = {},
) {
  const { profiles = 600, jobs = 150, seed = 42, ...rest } = options;
  const id = JSON.stringify({ profiles, jobs, seed, ...rest });
  let entry = cache.get(id);
  if (entry === undefined) {
    const fixtures = buildFixtures({ seed, profiles, jobs });
    entry = { app: createApp({ data: fixtures, log: false, ...rest }), fixtures };
    cache.set(id, entry);
  }
  return entry;
}

/**
 * An answer: `body` is the JSON as sent, read as `Body`, the answer the test says it asked for
 * (`send` has checked it against the contract's schema for its operation and status).
 */
export type Reply<Body = unknown> = { status: number; body: Body; headers: Headers };

const CONTRACT_PATHS = /\/(profiles|jobs)\/(grading|searching|scoring)$|\/(profile|job)\/grading$/;

/**
 * Sends a request in process and checks the answer is JSON in the envelope the contract gives
 * that operation and status (errors on paths outside the contract against the Error schema).
 */
export async function send<Body = unknown>(
  app: HrmockApp,
  request: Request | string,
): Promise<Reply<Body>> {
  const response = await app.request(request);
  const text = await response.text();
  expect(response.headers.get('content-type'), text).toMatch(/^application\/json/);
  const body = JSON.parse(text);
  expect(body.code).toBe(response.status);
  const req = typeof request === 'string' ? new Request(`http://localhost${request}`) : request;
  const path = new URL(req.url).pathname.replace(/^\/v1(?=\/)/, '');
  const method = req.method.toLowerCase();
  const documented =
    CONTRACT_PATHS.test(path) &&
    (method === 'get' || (method === 'post' && !path.endsWith('/grading')));
  // Outside the contract (e.g. /_mock/target) only errors have a schema to meet.
  if (!documented && response.status < 400)
    return { status: response.status, body, headers: response.headers };
  const verdict = documented
    ? validator.validateResponse(path, method, response.status, body)
    : validator.validateSchema('Error', body);
  expect(verdict, `${req.method} ${path} ${response.status}: ${text.slice(0, 300)}`).toEqual({
    ok: true,
  });
  return { status: response.status, body, headers: response.headers };
}

/** Query-string form of parameters: lists and objects as one JSON-encoded value. */
export function query(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    search.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return search.toString();
}

export function get<Body = unknown>(
  app: HrmockApp,
  path: string,
  params: Record<string, unknown> = {},
): Promise<Reply<Body>> {
  return send<Body>(app, `${path}?${query(params)}`);
}

export function post<Body = unknown>(
  app: HrmockApp,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply<Body>> {
  return send<Body>(
    app,
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}
