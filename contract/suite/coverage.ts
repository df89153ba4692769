import type { KeptExchange } from './client.ts';
import { answersByOperation, type Latency, latencyOf } from './latency.ts';
import type { ContractOperation } from './operation-inputs.ts';

/** What the run exercised of one operation of the contract. */
export type OperationCoverage = {
  operationId: string;
  method: string;
  path: string;
  /** Each documented status with how many answers had it (0: not exercised), then any other seen. */
  statuses: Record<string, number>;
  /** The documented parameters some request sent, in the contract's order. */
  parameters: string[];
  /** The documented parameters no request sent. */
  unsentParameters: string[];
  /** How long its answers took (absent when none came). */
  latency?: Latency;
};

export type Coverage = {
  operations: OperationCoverage[];
  /** Percent of the counted operation × documented status pairs that some answer had: the gate. */
  percent: number;
  exercised: number;
  counted: number;
  /**
   * Percent of every operation × documented status pair, those in `notCounted` included: the
   * literal share, which no conforming server reaches (its 500s never come).
   */
  percentOfAll: number;
  /** Every operation × documented status pair, and how many of them some answer had. */
  documented: number;
  exercisedOfAll: number;
  /** Documented statuses left out of the count, with why. */
  notCounted: { status: string; why: string }[];
  /** Answers to requests that match no operation (a wrong path), by `METHOD path`. */
  outside: Record<string, Record<string, number>>;
  /** With `--min-coverage`: the threshold and whether the run met it. */
  min?: number;
  met?: boolean;
  /** Under the threshold, why the run sent fewer requests than asked (the fuzz stopped early). */
  cutShort?: string;
};

/** Statuses every operation documents that a request alone never brings from a conforming server. */
const NEVER_BY_REQUEST: Record<string, string> = {
  '402': 'the account being over its quota brings it, not a request',
  '404': 'documented on every operation for an unknown path; a request to the operation is not one',
  '429':
    'a rate limit brings it, which a conforming server need not have; the run waits a 429 out and sends again, so it is never an answer of the run',
  '500': 'the contract promises no 5xx for anything a client sends (a check that gets one fails)',
};

const NO_CREDENTIALS_NEEDED =
  'the server answered a request that carried no headers of the run with a 2xx: it requires no key';

/** Coverage of the contract's operations by the exchanges of a run. */
export function coverageOf(operations: ContractOperation[], exchanges: KeptExchange[]): Coverage {
  const byPath = new Map<string, ContractOperation[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const statuses = new Map<ContractOperation, Map<string, number>>();
  const sent = new Map<ContractOperation, Set<string>>();
  const outside: Record<string, Record<string, number>> = {};
  let openWithoutKey = false;
  for (const exchange of exchanges) {
    const status = String(exchange.status);
    const atPath = byPath.get(exchange.path) ?? [];
    const op = atPath.find((o) => o.method === exchange.method.toUpperCase());
    if (exchange.status < 300 && bare(exchange)) openWithoutKey = true;
    // A method the path does not take: its 405 is the one each operation there documents.
    const credited = op !== undefined ? [op] : status === '405' ? atPath : [];
    if (credited.length === 0) {
      const where = `${exchange.method} ${exchange.path}`;
      outside[where] = { ...outside[where], [status]: (outside[where]?.[status] ?? 0) + 1 };
      continue;
    }
    for (const o of credited) {
      const counts = statuses.get(o) ?? new Map<string, number>();
      counts.set(status, (counts.get(status) ?? 0) + 1);
      statuses.set(o, counts);
    }
    if (op !== undefined) {
      const names = sent.get(op) ?? new Set<string>();
      for (const name of Object.keys(exchange.params ?? {})) names.add(name);
      sent.set(op, names);
    }
  }
  const skip = new Map(Object.entries(NEVER_BY_REQUEST));
  if (openWithoutKey) skip.set('401', NO_CREDENTIALS_NEEDED);
  let counted = 0;
  let exercised = 0;
  let allPairs = 0;
  let exercisedOfAll = 0;
  const answers = answersByOperation(operations, exchanges);
  const rows = operations.map((op): OperationCoverage => {
    const counts = statuses.get(op) ?? new Map<string, number>();
    const row: Record<string, number> = {};
    for (const status of op.statuses) {
      row[status] = counts.get(status) ?? 0;
      allPairs++;
      if (row[status] > 0) exercisedOfAll++;
      if (skip.has(status)) continue;
      counted++;
      if (row[status] > 0) exercised++;
    }
    for (const [status, n] of [...counts].sort()) if (!(status in row)) row[status] = n;
    const names = sent.get(op) ?? new Set<string>();
    const documented = [...new Set(op.inputs.map((i) => i.name))];
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      statuses: row,
      parameters: documented.filter((n) => names.has(n)),
      unsentParameters: documented.filter((n) => !names.has(n)),
      ...(answers.has(op) ? { latency: latencyOf(answers.get(op) ?? []) } : {}),
    };
  });
  const notCounted = [...skip]
    .filter(([status]) => operations.some((op) => op.statuses.includes(status)))
    .sort()
    .map(([status, why]) => ({ status, why }));
  const share = (part: number, whole: number) =>
    whole === 0 ? 100 : Math.floor((1000 * part) / whole) / 10;
  return {
    operations: rows,
    percent: share(exercised, counted),
    exercised,
    counted,
    percentOfAll: share(exercisedOfAll, allPairs),
    documented: allPairs,
    exercisedOfAll,
    notCounted,
    outside,
  };
}

/** A request that carried none of the run's headers (only what the suite sets itself). */
function bare(exchange: KeptExchange): boolean {
  const names = Object.keys(exchange.sent?.headers ?? {}).map((n) => n.toLowerCase());
  return exchange.sent !== undefined && names.every((n) => n === 'content-type');
}

/**
 * The threshold of `--min-coverage` applied. A run under it that stopped sending early says so
 * (`cutShort`), so that a low coverage reads as what was not sent, not as what was not covered.
 */
export function gated(coverage: Coverage, min: number | undefined, cutShort?: string): Coverage {
  if (min === undefined) return coverage;
  const met = coverage.percent >= min;
  return { ...coverage, min, met, ...(met || cutShort === undefined ? {} : { cutShort }) };
}
