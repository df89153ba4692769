import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { apiPath } from './api-path.ts';

/** The contract as the mock serves it: its text, and what the middleware needs to know of it. */
export const contractText = readFileSync(
  new URL('../../contract/openapi.yaml', import.meta.url),
  'utf8',
);

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
let doc: Doc | undefined;

export function contractDoc(): Doc {
  doc ??= parse(contractText, { maxAliasCount: -1 }) as Doc;
  return doc;
}

/** The statuses the contract documents for an operation, or undefined when it has none. */
export function documentedStatuses(method: string, path: string): number[] | undefined {
  const operation = contractDoc().paths[path]?.[method.toLowerCase()];
  return operation?.responses === undefined
    ? undefined
    : Object.keys(operation.responses).map(Number).sort();
}

/** The methods the contract gives a path, as an Allow header value. */
export function allowedMethods(path: string): string {
  const item = contractDoc().paths[apiPath(path)] ?? {};
  return Object.keys(item)
    .filter((m) => !m.startsWith('x-'))
    .map((m) => m.toUpperCase())
    .join(', ');
}
