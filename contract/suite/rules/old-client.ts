import type { Exchange } from '../client.ts';
import {
  defaultOf,
  enumAliasesOf,
  parameterAliases,
  pathAliases,
  relaxedSince,
} from '../contract-facts.ts';
import {
  baseOf,
  type Operable,
  operable,
  sameAnswer,
  sendTo,
  without,
} from '../contract-requests.ts';
import { at } from '../json-shape.ts';
import { isObject, parametersOf } from '../openapi.ts';
import { type ContractOperation, contractOperations } from '../operation-inputs.ts';
import { ALL_OPERATIONS, pathOf } from '../operations.ts';
import { expectThat, notJson, part, type Rule, type RuleContext, shown } from '../rule.ts';

type Published = RuleContext['history'][number];

/** The answer is a 2xx valid under what `published` gives the operation (at its canonical path). */
function validUnder(ctx: RuleContext, published: Published, path: string, exchange: Exchange) {
  const verdict = published.validator.validateResponse(
    path,
    exchange.method.toLowerCase(),
    exchange.status,
    exchange.body,
  );
  expectThat(
    ctx,
    exchange.status >= 200 && exchange.status < 300 && verdict.ok,
    exchange,
    `a 2xx answer valid under history/${published.name} (a request its clients may send)`,
    () =>
      verdict.ok
        ? `status ${exchange.status}: ${shown(exchange.text, 160)}`
        : `status ${exchange.status}: ${notJson(exchange)}${verdict.errors.slice(0, 3).join('; ')} in ${shown(exchange.text, 120)}`,
  );
}

/** What an old client sends today: its GETs with no new parameter (valid and invalid alike). */
async function plainGets(ctx: RuleContext): Promise<void> {
  for (const op of ALL_OPERATIONS)
    await part(ctx, async () => {
      const valid = await ctx.client.get(pathOf(op, ctx.target), op.params(ctx.target));
      const [firstName] = Object.keys(op.params(ctx.target));
      const invalid = await ctx.client.get(
        pathOf(op, ctx.target),
        without(op.params(ctx.target), [firstName as string]),
      );
      for (const exchange of [valid, invalid])
        for (const published of ctx.history) {
          const verdict = published.validator.validateResponse(
            op.path,
            'get',
            exchange.status,
            exchange.body,
          );
          expectThat(
            ctx,
            verdict.ok,
            exchange,
            `an answer valid under history/${published.name}`,
            () =>
              verdict.ok
                ? ''
                : `${notJson(exchange)}${verdict.errors.slice(0, 3).join('; ')} in ${shown(exchange.text, 120)}`,
          );
        }
    });
}

/** The same request in an older or other spelling: a 2xx valid then, and the canonical answer. */
async function asAlias(
  ctx: RuleContext,
  published: Published,
  canonicalPath: string,
  alias: () => Promise<Exchange>,
  canonical: () => Promise<Exchange>,
  what: string,
): Promise<void> {
  await part(ctx, async () => {
    const older = await alias();
    validUnder(ctx, published, canonicalPath, older);
    const today = await canonical();
    expectThat(
      ctx,
      sameAnswer(older, today),
      older,
      `the answer of the canonical request (${what})`,
      () =>
        `status ${older.status}, data ${shown(at(older.body, 'data'), 100)}; canonical: status ${today.status}, data ${shown(at(today.body, 'data'), 100)}`,
    );
  });
}

/** A value that means the same as the canonical parameter's: its default, else its example. */
function sampleOf(ctx: RuleContext, op: ContractOperation, name: string): unknown {
  const input = op.inputs.find((i) => i.name === name);
  const value = input === undefined ? undefined : defaultOf(ctx.contract, input.schema);
  if (value !== undefined) return value;
  const parameter = parametersOf(ctx.contract, op.path, 'get').find((p) => p.name === name);
  return parameter?.example === undefined ? undefined : parseMaybe(parameter.example);
}

function parseMaybe(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The requests a client of `published` may send that the current contract's history promises. */
async function replay(ctx: RuleContext, published: Published, entry: Operable): Promise<void> {
  const { op } = entry;
  const canonicalPath = pathAliases(ctx.contract)[op.path] ?? op.path;
  const then = contractOperations(published.doc).find(
    (o) => o.path === canonicalPath && o.method === op.method,
  );
  if (then === undefined) return;
  const base = baseOf(ctx, entry);
  const send = (params: Record<string, unknown>, path = op.path) => sendTo(ctx, op, params, path);
  // Required then, optional now: left out.
  for (const name of relaxedSince(then, op))
    await part(ctx, async () => {
      validUnder(ctx, published, canonicalPath, await send(without(base, [name])));
    });
  // Another spelling of the path.
  if (canonicalPath !== op.path)
    await asAlias(
      ctx,
      published,
      canonicalPath,
      () => send(base),
      () => send(base, canonicalPath),
      `${op.path} is another spelling of ${canonicalPath}`,
    );
  // Older names of parameters, and older names of values.
  for (const [alias, canonical] of Object.entries(parameterAliases(ctx.contract))) {
    if (!op.inputs.some((i) => i.name === alias)) continue;
    const value = base[canonical] ?? sampleOf(ctx, op, canonical);
    if (value === undefined) continue;
    const rest = without(base, [canonical]);
    await asAlias(
      ctx,
      published,
      canonicalPath,
      () => send({ ...rest, [alias]: value }),
      () => send({ ...rest, [canonical]: value }),
      `${alias} is another name of ${canonical}`,
    );
  }
  for (const input of op.inputs)
    for (const [older, value] of Object.entries(enumAliasesOf(ctx.contract, input.schema)))
      await asAlias(
        ctx,
        published,
        canonicalPath,
        () => send({ ...base, [input.name]: older }),
        () => send({ ...base, [input.name]: value }),
        `${input.name}=${older} is another name of ${input.name}=${value}`,
      );
}

export const OLD_CLIENT: Rule = {
  id: 'OLD-CLIENT',
  title:
    "what an old client sends gets an answer valid under every contract in history/: its plain GETs, the parameters its version required that are optional now left out, the contract's other names of paths, parameters and values",
  async run(ctx) {
    await plainGets(ctx);
    for (const published of ctx.history) {
      if (!isObject(published.doc.paths)) continue;
      for (const entry of operable(ctx)) await replay(ctx, published, entry);
    }
  },
};
