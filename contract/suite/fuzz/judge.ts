import type { Exchange } from '../client.ts';
import { asArray, asObject, at, field } from '../json-shape.ts';
import { MINIMAL_FIELDS } from '../operations.ts';
import { expectThat, type RuleContext, shown } from '../rule.ts';
import { checkEnvelope } from '../rules/env.ts';
import { type FuzzCase, sentParams, suiteOperationAt } from './cases.ts';

/**
 * The verdict on one generated exchange: never a 5xx; every other answer JSON in the envelope
 * the contract gives that operation and status (a 4xx in the error envelope); a 2xx valid and
 * holding what one answer alone can show (PAGE, PRED, GRD-ALIGN, GRD-DEFAULT on that answer).
 * Throws a Violation on the first broken promise.
 */
export function judge(ctx: RuleContext, c: FuzzCase, exchange: Exchange): void {
  expectThat(
    ctx,
    exchange.status < 500,
    exchange,
    'no 5xx for anything a client sends',
    () => `status ${exchange.status}: ${shown(exchange.text, 160)}`,
  );
  checkEnvelope(ctx, exchange);
  if (exchange.status >= 200 && exchange.status < 300 && exchange.method === c.method)
    holdsAlone(ctx, c, exchange);
}

/**
 * A parameter sent once as a plain number (or its digits), for the checks that depend on it;
 * undefined when absent, repeated or anything else.
 */
function sentNumber(c: FuzzCase, name: string, integer = false): number | undefined {
  const values = sentParams(c).filter(([n]) => n === name);
  if (values.length !== 1) return undefined;
  const value = values[0]?.[1];
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (!(integer ? /^\d+$/ : /^\d+(\.\d+)?$/).test(text)) return undefined;
  return Number(text);
}

function holdsAlone(ctx: RuleContext, c: FuzzCase, exchange: Exchange): void {
  const op = suiteOperationAt(c.path);
  const data = at(exchange.body, 'data');
  if (op === undefined || typeof data !== 'object' || data === null) return;
  const items = asArray(at(data, op.list)) ?? [];
  if (op.path.endsWith('/grading')) {
    for (const list of ['scores', 'errors']) {
      const entries = asArray(at(data, list));
      if (entries !== undefined)
        expectThat(
          ctx,
          entries.length === items.length,
          exchange,
          `${list} aligned with ${op.list}: ${items.length} entries (GRD-ALIGN)`,
          () => `${entries.length}`,
        );
    }
    const flag = op.list === 'profiles' ? 'return_profile' : 'return_job';
    if (!sentParams(c).some(([n]) => n === flag)) {
      const allowed = new Set(MINIMAL_FIELDS[op.list]);
      const extra = items.flatMap((item) =>
        item !== null && typeof item === 'object'
          ? Object.keys(item).filter((k) => !allowed.has(k))
          : [],
      );
      expectThat(
        ctx,
        extra.length === 0,
        exchange,
        `minimal ${op.list} without ${flag} (GRD-DEFAULT)`,
        () => `a field ${extra[0]}`,
      );
    }
    return;
  }
  const meta = asObject(field(exchange.body, 'meta')) ?? {};
  const sentLimit = sentParams(c).some(([n]) => n === 'limit');
  const limit = sentNumber(c, 'limit', true) ?? (sentLimit ? 100 : 30);
  expectThat(
    ctx,
    meta.count === items.length,
    exchange,
    `meta.count = ${items.length}, the items (PAGE)`,
    () => meta.count,
  );
  expectThat(
    ctx,
    items.length <= limit,
    exchange,
    `at most ${limit} items (PAGE)`,
    () => items.length,
  );
  expectThat(
    ctx,
    // As the server wrote them, compared as JavaScript compares them.
    (meta.page as number) <= (meta.maxPage as number),
    exchange,
    'meta.page <= meta.maxPage (PAGE)',
    () => `${meta.page} > ${meta.maxPage}`,
  );
  if (sentNumber(c, 'limit', true) !== undefined || !sentLimit)
    expectThat(
      ctx,
      meta.maxPage === Math.max(1, Math.ceil(Number(meta.total) / limit)),
      exchange,
      `meta.maxPage = max(1, ceil(${meta.total} / ${limit})) (PAGE)`,
      () => meta.maxPage,
    );
  const predictions = asArray(at(data, 'predictions'));
  if (!op.scoring || predictions === undefined || predictions.length === 0) return;
  expectThat(
    ctx,
    predictions.length === items.length,
    exchange,
    `${items.length} predictions, one per item (PRED)`,
    () => predictions.length,
  );
  const threshold = sentNumber(c, 'score_threshold');
  predictions.forEach((pair, i) => {
    const ok =
      Array.isArray(pair) &&
      pair.length === 2 &&
      pair.every((x) => typeof x === 'number' && x >= 0 && x <= 1) &&
      Math.abs(pair[0] + pair[1] - 1) < 1e-6;
    expectThat(
      ctx,
      ok,
      exchange,
      `predictions[${i}] two numbers in [0, 1] summing to 1 (PRED)`,
      () => pair,
    );
    if (threshold !== undefined)
      expectThat(
        ctx,
        ((pair as number[])[1] as number) >= threshold,
        exchange,
        `predictions[${i}] at least score_threshold=${threshold} (PRED)`,
        () => pair,
      );
  });
}
