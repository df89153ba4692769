import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { contractUrl } from './contract-types.ts';

/**
 * Where the defaults module is written: once for src/ and once for the suite, which imports
 * nothing of src/ (a black box that knows the contract).
 */
export const defaultsUrls = [
  new URL('../src/generated/defaults.ts', import.meta.url),
  new URL('../contract/suite/contract-defaults.ts', import.meta.url),
];

type Doc = Record<string, unknown>;

/** The TypeScript module of the defaults contract/openapi.yaml gives its query parameters. */
export async function generateDefaults(): Promise<string> {
  const doc = parse(await readFile(contractUrl, 'utf8')) as Doc;
  const defaults = new Map<string, unknown>();
  for (const parameter of parametersOf(doc)) {
    const value = defaultOf(doc, parameter.schema);
    if (value === undefined) continue;
    const known = defaults.get(parameter.name);
    if (known !== undefined && known !== value)
      throw new Error(
        `contract/openapi.yaml gives ${parameter.name} two defaults, ${literal(known)} and ${literal(value)}: one parameter name, one default`,
      );
    defaults.set(parameter.name, value);
  }
  const entries = [...defaults]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `  ${name}: ${literal(value)},\n`)
    .join('');
  return `// Generated from contract/openapi.yaml by \`npm run types\`. Do not edit.

/** The default of each query parameter the contract gives one, by name. */
export const PARAMETER_DEFAULTS = {
${entries}} as const;
`;
}

/** A generated file as it is on disk, or null when it does not exist. */
export async function readGenerated(url: URL): Promise<string | null> {
  try {
    return await readFile(url, 'utf8');
  } catch {
    return null;
  }
}

/** Every parameter of the document: the shared ones and those written in an operation. */
function parametersOf(doc: Doc): { name: string; schema: unknown }[] {
  const shared = Object.values(((doc.components as Doc)?.parameters ?? {}) as Doc);
  const inline = Object.values((doc.paths ?? {}) as Doc).flatMap((item) =>
    Object.values(item as Doc).flatMap((op) => ((op as Doc)?.parameters ?? []) as unknown[]),
  );
  return [...shared, ...inline]
    .map((p) => resolve(doc, p) as { name?: unknown; in?: unknown; schema?: unknown })
    .filter((p) => typeof p?.name === 'string' && p.in === 'query')
    .map((p) => ({ name: p.name as string, schema: p.schema }));
}

/** A schema's default, or that of a member of its `anyOf`/`oneOf`. */
function defaultOf(doc: Doc, schema: unknown, depth = 0): unknown {
  const resolved = resolve(doc, schema) as Doc | undefined;
  if (resolved === undefined || depth > 8) return undefined;
  if (resolved.default !== undefined) return resolved.default;
  const members = [
    ...((resolved.anyOf ?? []) as unknown[]),
    ...((resolved.oneOf ?? []) as unknown[]),
  ];
  return members.map((m) => defaultOf(doc, m, depth + 1)).find((value) => value !== undefined);
}

/** A `#/…` reference followed to what it names (several in a row too). */
function resolve(doc: Doc, value: unknown): unknown {
  let found = value;
  for (let hops = 0; hops < 16; hops++) {
    const ref = (found as Doc | null)?.$ref;
    if (typeof ref !== 'string') return found;
    found = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Doc | undefined)?.[key], doc);
  }
  throw new Error(`contract/openapi.yaml: a $ref chain longer than 16 at ${JSON.stringify(value)}`);
}

/** A default as TypeScript writes it here: single-quoted strings, plain numbers and booleans. */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
