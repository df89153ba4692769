import type { Exchange } from './client.ts';
import { at } from './json-shape.ts';
import { type ContractOperation, contractOperations } from './operation-inputs.ts';
import { type SuiteOperation, suiteOperationAt } from './operations.ts';
import type { RuleContext } from './rule.ts';

/** A contract operation with the suite's description of it (the list it answers, its keys). */
export type Operable = { op: ContractOperation; suite: SuiteOperation };

/** Every operation of the contract the suite knows how to call, in the document's order. */
export function operable(ctx: Pick<RuleContext, 'contract'>): Operable[] {
  return contractOperations(ctx.contract).flatMap((op) => {
    const suite = suiteOperationAt(op.path);
    return suite === undefined ? [] : [{ op, suite }];
  });
}

/** The parameters of a valid request to the operation, from the target. */
export function baseOf(ctx: Pick<RuleContext, 'target'>, { suite }: Operable) {
  return suite.params(ctx.target);
}

/** Sends parameters as the operation takes them: a query string for GET, a JSON body for POST. */
export function sendTo(
  ctx: Pick<RuleContext, 'client'>,
  op: ContractOperation,
  params: Record<string, unknown>,
  path = op.path,
): Promise<Exchange> {
  return op.method === 'POST' ? ctx.client.post(path, params) : ctx.client.get(path, params);
}

/** `GET /profiles/searching`: how a report names an operation. */
export function nameOf(op: ContractOperation): string {
  return `${op.method} ${op.path}`;
}

/** The parameters without the named ones. */
export function without(params: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([name]) => !names.includes(name)));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether two answers carry the same status, data and meta. */
export function sameAnswer(a: Exchange, b: Exchange): boolean {
  return (
    a.status === b.status &&
    same(at(a.body, 'data'), at(b.body, 'data')) &&
    same(at(a.body, 'meta'), at(b.body, 'meta'))
  );
}
