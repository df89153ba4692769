import type { Exchange } from '../client.ts';
import { asArray, asObject, at } from '../json-shape.ts';
import { GRADE_PROFILES, pathOf, SCORE_JOBS, SEARCH_JOBS, SEARCH_PROFILES } from '../operations.ts';
import { expectThat, part, type Rule, type RuleContext, shown } from '../rule.ts';

/**
 * A 4xx in the error envelope. The contract makes `errors` optional and promises, when it is
 * there, one `{param, message}` per invalid parameter: so with `param`, a present `errors` must
 * name it. An envelope without `errors` passes: `message` is free text the contract does not shape.
 */
function expectRejected(ctx: RuleContext, exchange: Exchange, param?: string): void {
  expectThat(
    ctx,
    exchange.status >= 400 && exchange.status < 500,
    exchange,
    'a 4xx status (never a 5xx)',
    () => `status ${exchange.status}: ${shown(exchange.text, 160)}`,
  );
  const body = asObject(exchange.body);
  expectThat(
    ctx,
    body !== undefined && body.code === exchange.status && typeof body.message === 'string',
    exchange,
    `an error envelope {code: ${exchange.status}, message}`,
    () => shown(exchange.text, 160),
  );
  const errors = body?.errors;
  if (param === undefined || errors === undefined) return;
  const named = asArray(errors)?.some((e) => at(e, 'param') === param) ?? false;
  expectThat(
    ctx,
    named,
    exchange,
    `errors naming the parameter ${param} (errors is optional; when present it names each invalid parameter)`,
    () => errors,
  );
}

export const BAD_INPUT: Rule = {
  id: 'BAD-INPUT',
  title:
    'missing or malformed parameters, malformed JSON and wrong types get a 4xx envelope; its errors, when present, name the parameter',
  async run(ctx) {
    const t = ctx.target;
    const { client } = ctx;
    const search = SEARCH_PROFILES.params(t);
    const grading = GRADE_PROFILES.params(t);
    const { algorithm_key: _, ...gradingWithoutAlgorithm } = grading;
    const { board_keys: __, ...jobsWithoutBoards } = SEARCH_JOBS.params(t);

    // Thunks: each request is sent only once the previous one has been checked.
    const cases: [() => Promise<Exchange>, string | undefined][] = [
      [() => client.get(SEARCH_PROFILES.path, {}), 'source_keys'],
      [() => client.get(SEARCH_PROFILES.path, { source_keys: 'not-a-list' }), 'source_keys'],
      [() => client.get(SEARCH_PROFILES.path, { ...search, page: 'second' }), 'page'],
      [() => client.get(SEARCH_PROFILES.path, { ...search, limit: '1000' }), 'limit'],
      [() => client.get(SEARCH_PROFILES.path, { ...search, order_by: 'sideways' }), 'order_by'],
      [() => client.get(pathOf(GRADE_PROFILES, t), gradingWithoutAlgorithm), 'algorithm_key'],
      [
        () =>
          client.get(pathOf(GRADE_PROFILES, t), { ...grading, profile_ids: '[{"source_key": 1}]' }),
        'profile_ids',
      ],
      [
        () => client.get(SCORE_JOBS.path, { ...SCORE_JOBS.params(t), score_threshold: 'high' }),
        'score_threshold',
      ],
      [() => client.post(SEARCH_JOBS.path, jobsWithoutBoards), 'board_keys'],
      [() => client.post(SEARCH_PROFILES.path, { ...search, limit: 'many' }), 'limit'],
      [() => client.post(SEARCH_PROFILES.path, { ...search, source_keys: 42 }), 'source_keys'],
      [
        () => client.raw('POST', SEARCH_PROFILES.path, '{"source_keys": ["', { direct: true }),
        'body',
      ],
      [
        () =>
          client.raw('POST', SEARCH_PROFILES.path, 'source_keys=abc', {
            contentType: 'text/plain',
          }),
        undefined,
      ],
    ];
    for (const [send, param] of cases)
      await part(ctx, async () => expectRejected(ctx, await send(), param));
  },
};
