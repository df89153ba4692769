import fc from 'fast-check';
import type { Outgoing } from '../client.ts';
import { deref, isObject, type OpenApiDoc } from '../openapi.ts';
import type { ContractOperation, Input } from '../operation-inputs.ts';
import { suiteOperationAt } from '../operations.ts';
import type { Target } from '../target.ts';

export { suiteOperationAt };

import { type Hostile, hostileFor } from './hostile.ts';
import { type KnownKeys, valuesOf } from './schema-values.ts';

/** One generated request: an operation, its parameters in order (a name may repeat), and what is hostile in it. */
export type FuzzCase = {
  operationId: string;
  method: string;
  path: string;
  params: [string, unknown][];
  hostile?: Hostile;
};

/** Keys of the target by the parameter names that take them. */
export function knownKeys(t: Target): KnownKeys {
  const profileIds = t.profiles.profile_ids;
  const jobIds = t.jobs.job_ids;
  const sources = [...new Set([...t.profiles.source_keys, t.jobs.source_key])];
  const boards = [...new Set([...t.jobs.board_keys, t.profiles.board_key])];
  const subsets = <T>(items: T[]) => [items, items.slice(0, 1), items.slice(-2)];
  return {
    byName: {
      source_key: sources,
      board_key: boards,
      job_key: [t.profiles.job_key, ...jobIds.map((j) => j.job_key)],
      profile_key: [t.jobs.profile_key, ...profileIds.map((p) => p.profile_key)],
      source_keys: subsets(t.profiles.source_keys),
      board_keys: subsets(t.jobs.board_keys),
      profile_ids: subsets(profileIds).map((ids) => JSON.stringify(ids)),
      job_ids: subsets(jobIds).map((ids) => JSON.stringify(ids)),
      algorithm_key: [t.profiles.algorithm_key, t.jobs.algorithm_key],
    },
    any: [...sources, ...boards],
  };
}

/** Whether a parameter's schema is a number (directly or through `$ref` / `anyOf`). */
function numeric(doc: OpenApiDoc, input: Input): boolean {
  const schema = deref(doc, input.schema);
  if (!isObject(schema)) return false;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) return branches.some((b) => numeric(doc, { ...input, schema: b }));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('integer') || types.includes('number');
}

/** Requests for one operation: the target's valid parameters, some documented ones drawn, maybe one hostile change. */
function casesFor(
  doc: OpenApiDoc,
  op: ContractOperation,
  t: Target,
): fc.Arbitrary<FuzzCase> | null {
  const suite = suiteOperationAt(op.path);
  if (suite === undefined) return null;
  const base = Object.entries(suite.params(t));
  const keys = knownKeys(t);
  const inputs = op.inputs.filter((i) => i.name !== '');
  const drawn = inputs.map((input) =>
    valuesOf(doc, input.schema, keys, input.name).map((value): [string, unknown] => [
      input.name,
      value,
    ]),
  );
  const names = [...new Set([...base.map(([n]) => n), ...inputs.map((i) => i.name)])];
  const hostile = hostileFor({
    method: op.method,
    names,
    numeric: inputs.filter((i) => numeric(doc, i)).map((i) => i.name),
    required: base.map(([n]) => n),
    paged: inputs.some((i) => i.name === 'page'),
  });
  return fc
    .record({
      extra: fc.array(fc.oneof(...drawn), { maxLength: 3 }),
      hostile: fc.oneof(fc.constant(undefined), hostile),
    })
    .map(({ extra, hostile: h }) => {
      const params = new Map<string, unknown>(base);
      for (const [name, value] of extra) params.set(name, value);
      const entries = [...params];
      const fuzzCase: FuzzCase = {
        operationId: op.operationId,
        method: op.method,
        path: op.path,
        params: entries,
      };
      if (h !== undefined) fuzzCase.hostile = h;
      return fuzzCase;
    });
}

/** Requests drawn from every operation of the contract, GET and POST, both grading spellings. */
export function fuzzCases(
  doc: OpenApiDoc,
  operations: ContractOperation[],
  t: Target,
): fc.Arbitrary<FuzzCase> {
  const all = operations
    .map((op) => casesFor(doc, op, t))
    .filter((a): a is fc.Arbitrary<FuzzCase> => a !== null);
  return fc.oneof(...all);
}

/** The parameters a case sends, its hostile change applied. */
export function sentParams(c: FuzzCase): [string, unknown][] {
  const h = c.hostile;
  if (h === undefined || h.kind === 'probe') return c.params;
  if (h.kind === 'drop') return c.params.filter(([n]) => n !== h.name);
  if (h.kind === 'add') return [...c.params, [h.name, h.value]];
  const at = c.params.findIndex(([n]) => n === h.name);
  if (at < 0) return [...c.params, [h.name, h.value]];
  return c.params.map((entry, i): [string, unknown] => (i === at ? [h.name, h.value] : entry));
}

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A JSON object's text with its members in order, a repeated name included. */
function jsonObject(entries: [string, unknown][]): string {
  const members = entries
    .filter(([, v]) => v !== undefined)
    .map(([n, v]) => `${JSON.stringify(n)}:${JSON.stringify(v)}`);
  return `{${members.join(',')}}`;
}

/** The request a case sends. */
export function outgoing(c: FuzzCase): Outgoing {
  const entries = sentParams(c);
  const probe = c.hostile?.kind === 'probe' ? c.hostile.probe : undefined;
  const method = probe !== undefined && 'method' in probe ? probe.method : c.method;
  const search = new URLSearchParams();
  const bodyEntries: [string, unknown][] = [];
  for (const [name, value] of entries) {
    if (c.method === 'GET') search.append(name, queryValue(value));
    else bodyEntries.push([name, value]);
  }
  if (probe !== undefined && 'padQuery' in probe)
    search.append('hrmock_padding', 'x'.repeat(probe.padQuery));
  if (probe !== undefined && 'padBody' in probe)
    bodyEntries.push(['hrmock_padding', 'x'.repeat(probe.padBody)]);
  const out: Outgoing = {
    method,
    path: c.path,
    query: search.toString(),
    params: Object.fromEntries(entries),
  };
  if (c.method === 'POST') {
    out.body =
      probe !== undefined && 'malformed' in probe ? probe.malformed : jsonObject(bodyEntries);
    if (probe !== undefined && 'contentType' in probe) out.contentType = probe.contentType;
  }
  if (probe !== undefined && 'bare' in probe) out.bare = true;
  return out;
}
