import type { KeptExchange } from './client.ts';
import type { ContractOperation } from './operation-inputs.ts';

/** How long one operation's answers took, over the run: the middle one and the 95th percentile. */
export type Latency = { count: number; p50Ms: number; p95Ms: number };

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/** The answers of each operation (same path and method), slowest last. */
export function answersByOperation(
  operations: ContractOperation[],
  exchanges: KeptExchange[],
): Map<ContractOperation, KeptExchange[]> {
  const found = new Map<ContractOperation, KeptExchange[]>();
  for (const exchange of exchanges) {
    const method = exchange.method.toUpperCase();
    const op = operations.find((o) => o.path === exchange.path && o.method === method);
    if (op === undefined) continue;
    found.set(op, [...(found.get(op) ?? []), exchange]);
  }
  for (const list of found.values()) list.sort((a, b) => a.ms - b.ms);
  return found;
}

/** The latency of answers sorted by time, rounded to a tenth of a millisecond. */
export function latencyOf(sorted: KeptExchange[]): Latency {
  const times = sorted.map((e) => e.ms);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    count: times.length,
    p50Ms: round(percentile(times, 0.5)),
    p95Ms: round(percentile(times, 0.95)),
  };
}
