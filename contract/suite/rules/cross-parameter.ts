import type { Exchange } from '../client.ts';
import { appliesTo, type CrossRule, crossRules, namesOf } from '../contract-facts.ts';
import { baseOf, type Operable, operable, sendTo, without } from '../contract-requests.ts';
import { asArray, at, field } from '../json-shape.ts';
import { GRADE_JOBS, GRADE_PROFILES } from '../operations.ts';
import { expectOk, expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';

/** A 400 in the error envelope; its `errors`, when present, name one of the rule's parameters. */
function expectRefused(ctx: RuleContext, exchange: Exchange, names: string[], why: string): void {
  const body = exchange.body;
  expectThat(
    ctx,
    exchange.status === 400 && at(body, 'code') === 400 && typeof at(body, 'message') === 'string',
    exchange,
    `400 in the error envelope: ${why}`,
    () => `status ${exchange.status}: ${shown(exchange.text, 160)}`,
  );
  const errors = field(body, 'errors');
  if (errors === undefined) return;
  const named = (e: unknown) => {
    const param = at(e, 'param');
    return typeof param === 'string' && names.includes(param);
  };
  expectThat(
    ctx,
    asArray(errors)?.some(named) ?? false,
    exchange,
    `errors naming ${names.join(' or ')} (${why})`,
    () => errors,
  );
}

type Values = Record<string, unknown>;

/** The keys, references and lists a group of parameters may take, for one side of the API. */
async function valuesFor(ctx: RuleContext, { suite }: Operable, refs: References): Promise<Values> {
  const t = ctx.target;
  if (suite.list === 'profiles') {
    const one = t.profiles.profile_ids[0];
    return {
      board_key: t.profiles.board_key,
      job_key: t.profiles.job_key,
      job_reference: await refs.job(t.profiles.board_key, t.profiles.job_key),
      profile_ids: t.profiles.profile_ids,
      source_key: one?.source_key,
      profile_key: one?.profile_key,
      profile_reference: one && (await refs.profile(one.source_key, one.profile_key)),
    };
  }
  const one = t.jobs.job_ids[0];
  return {
    source_key: t.jobs.source_key,
    profile_key: t.jobs.profile_key,
    profile_reference: await refs.profile(t.jobs.source_key, t.jobs.profile_key),
    job_ids: t.jobs.job_ids,
    board_key: one?.board_key,
    job_key: one?.job_key,
    job_reference: one && (await refs.job(one.board_key, one.job_key)),
  };
}

/** References of target objects, read once from grading answers (null: none known). */
type References = {
  profile: (source: string, key: string) => Promise<unknown>;
  job: (board: string, key: string) => Promise<unknown>;
};

function references(ctx: RuleContext): References {
  const seen = new Map<string, unknown>();
  const t = ctx.target;
  const once = async (id: string, ask: () => Promise<Exchange>, list: 'profiles' | 'jobs') => {
    if (!seen.has(id)) {
      const answer = await ask();
      const item = answer.status === 200 ? asArray(at(answer.body, 'data', list))?.[0] : undefined;
      const reference = at(item, 'reference');
      seen.set(id, typeof reference === 'string' ? reference : null);
    }
    return seen.get(id);
  };
  // A grading batch of one names the object's reference in its minimal item.
  return {
    profile: (source, key) =>
      once(
        `p ${source} ${key}`,
        () =>
          ctx.client.get(t.profiles.grading_path, {
            ...GRADE_PROFILES.params(t),
            profile_ids: [{ source_key: source, profile_key: key }],
          }),
        'profiles',
      ),
    job: (board, key) =>
      once(
        `j ${board} ${key}`,
        () =>
          ctx.client.get(t.jobs.grading_path, {
            ...GRADE_JOBS.params(t),
            job_ids: [{ board_key: board, job_key: key }],
          }),
        'jobs',
      ),
  };
}

/** The group's parameters with their values, or undefined when one has no known value. */
function groupParams(group: string[], values: Values): Values | undefined {
  const picked = group.map((name) => [name, values[name]] as const);
  if (picked.some(([, value]) => value === undefined || value === null)) return undefined;
  return Object.fromEntries(picked);
}

async function checkGroups(
  ctx: RuleContext,
  entry: Operable,
  rule: Extract<CrossRule, { groups: string[][] }>,
  values: Values,
): Promise<void> {
  const names = namesOf(rule);
  const rest = without(baseOf(ctx, entry), names);
  const shownGroups = rule.groups.map((g) => g.join(' + ')).join(' | ');
  for (const group of rule.groups) {
    const params = groupParams(group, values);
    if (params === undefined) continue;
    await part(ctx, async () => {
      expectOk(ctx, await sendTo(ctx, entry.op, { ...rest, ...params }));
    });
  }
  await part(ctx, async () => {
    const none = await sendTo(ctx, entry.op, rest);
    expectRefused(ctx, none, names, `none of ${shownGroups} sent, and the contract needs one`);
  });
  const [first, second] = rule.groups.map((g) => groupParams(g, values));
  if (rule.kind === 'one-of' && first !== undefined && second !== undefined)
    await part(ctx, async () => {
      const both = await sendTo(ctx, entry.op, { ...rest, ...first, ...second });
      expectRefused(ctx, both, names, `two of ${shownGroups} sent, and the contract takes one`);
    });
}

export const CROSS_PARAM: Rule = {
  id: 'CROSS-PARAM',
  title:
    "the contract's rules between parameters hold (x-cross-parameter-rules): a bound after its other bound, a distance without its point, no grading mode or two, each a 400 naming the parameter; each mode alone answers",
  async run(ctx) {
    const refs = references(ctx);
    const all = operable(ctx).map((e) => e.op);
    for (const rule of crossRules(ctx.contract))
      for (const entry of operable(ctx).filter((e) => appliesTo(rule, e.op, all))) {
        if ('groups' in rule) {
          await checkGroups(ctx, entry, rule, await valuesFor(ctx, entry, refs));
          continue;
        }
        const why =
          rule.kind === 'needs'
            ? `${rule.names[0]} sent without ${rule.names[1]}`
            : `${rule.names[0]} after ${rule.names[1]}`;
        await part(ctx, async () => {
          const sent = await sendTo(ctx, entry.op, { ...baseOf(ctx, entry), ...rule.example });
          expectRefused(ctx, sent, rule.names, why);
        });
      }
  },
};
