import { type Exchange, toQuery } from '../client.ts';
import { baseOf, type Operable, operable } from '../contract-requests.ts';
import { expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';
import { checkEnvelope } from './env.ts';

/** Past the URL limit the contract's own example names (16,384 bytes). */
const LONG_QUERY = 20 * 1024;

/** Past the body limit the contract's own example names (1,048,576 bytes). */
const LARGE_BODY = 1024 * 1024 + 64;

type Probe = {
  status: string;
  what: string;
  /** Whether a server may also answer it (no key needed, a larger limit): a valid 2xx. */
  mayPass: boolean;
  send: (ctx: RuleContext, entry: Operable) => Promise<Exchange>;
};

/** The request each documented refusal is for, sent as the operation takes its parameters. */
const PROBES: Probe[] = [
  {
    status: '401',
    what: 'a request without the run headers (no key)',
    mayPass: true,
    send: (ctx, entry) => {
      const params = baseOf(ctx, entry);
      const { method, path } = entry.op;
      return method === 'POST'
        ? ctx.client.send({ method, path, body: JSON.stringify(params), params, bare: true })
        : ctx.client.send({ method, path, query: toQuery(params), params, bare: true });
    },
  },
  {
    status: '414',
    what: 'a URL of more than 20 KB',
    mayPass: true,
    send: (ctx, entry) => {
      const params = baseOf(ctx, entry);
      const { method, path } = entry.op;
      const padding = { hrmock_padding: 'x'.repeat(LONG_QUERY) };
      const query = toQuery({ ...(method === 'GET' ? params : {}), ...padding });
      const body = method === 'POST' ? JSON.stringify(params) : undefined;
      // Straight to the implementation under --via-prism: Prism's own server refuses such a URL
      // (431, no body) before the implementation sees it.
      return ctx.client.raw(method, path, body, { query, params, direct: true });
    },
  },
  {
    status: '413',
    what: 'a JSON body of more than 1 MB',
    mayPass: true,
    send: (ctx, entry) => {
      const params = baseOf(ctx, entry);
      const body = JSON.stringify({ ...params, hrmock_padding: 'x'.repeat(LARGE_BODY) });
      return ctx.client.raw(entry.op.method, entry.op.path, body, { params, direct: true });
    },
  },
  {
    status: '415',
    what: 'a text/plain body',
    mayPass: false,
    send: (ctx, entry) =>
      ctx.client.raw(entry.op.method, entry.op.path, 'source_keys=abc', {
        contentType: 'text/plain',
        params: baseOf(ctx, entry),
      }),
  },
];

/**
 * Every operation is sent, once each, the request for each refusal it documents (401, 414, 413,
 * 415): the answer is that status or another 4xx in the error envelope, or a valid answer where
 * the server takes it (no key needed, a larger limit); never a 5xx or a dropped connection. The
 * run's coverage then shows these statuses whatever the fuzz happened to draw.
 */
export const REFUSALS: Rule = {
  id: 'REFUSALS',
  title:
    'each documented refusal is met once per operation: no key (401), a URL over 20 KB (414), a body over 1 MB (413), a body that is not JSON (415) get that status or another 4xx in the error envelope, or a valid answer where the server takes them; never a 5xx',
  async run(ctx) {
    for (const entry of operable(ctx))
      for (const probe of PROBES.filter((p) => entry.op.statuses.includes(p.status)))
        await part(ctx, async () => {
          const exchange = await probe.send(ctx, entry);
          const refused = exchange.status >= 400 && exchange.status < 500;
          const passed = exchange.status >= 200 && exchange.status < 300;
          expectThat(
            ctx,
            refused || (probe.mayPass && passed),
            exchange,
            `${probe.status} (or another 4xx) in the error envelope for ${probe.what}${probe.mayPass ? ', or a valid answer' : ''}; ${entry.op.method} ${entry.op.path} documents ${probe.status}`,
            () => `status ${exchange.status}: ${shown(exchange.text, 160)}`,
          );
          checkEnvelope(ctx, exchange);
        });
  },
};
