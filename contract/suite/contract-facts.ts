import { deref, isObject, type OpenApiDoc, operations, parametersOf } from './openapi.ts';
import type { ContractOperation, Input } from './operation-inputs.ts';

/**
 * What the checks read from the contract documents beyond schemas: defaults, aliases, the
 * cross-parameter rules (`components.x-cross-parameter-rules`), what a published version
 * required. A fact added to the contract adds the checks that follow from it.
 */

/** A schema's default, or that of a member of its `anyOf`/`oneOf` (a body field that may be null). */
export function defaultOf(doc: OpenApiDoc, schema: unknown, depth = 0): unknown {
  const resolved = deref(doc, schema);
  if (!isObject(resolved) || depth > 8) return undefined;
  if (resolved.default !== undefined) return resolved.default;
  const members = [
    ...(Array.isArray(resolved.anyOf) ? resolved.anyOf : []),
    ...(Array.isArray(resolved.oneOf) ? resolved.oneOf : []),
  ];
  return members.map((m) => defaultOf(doc, m, depth + 1)).find((value) => value !== undefined);
}

/** The optional inputs of an operation that have a default, with it. */
export function defaultsOf(doc: OpenApiDoc, op: ContractOperation): [string, unknown][] {
  return op.inputs
    .filter((input) => !input.required)
    .map((input): [string, unknown] => [input.name, defaultOf(doc, input.schema)])
    .filter(([, value]) => value !== undefined);
}

/** `x-enum-aliases` of a schema or of the members of its `anyOf`: older value → its canonical value. */
export function enumAliasesOf(doc: OpenApiDoc, schema: unknown, depth = 0): Record<string, string> {
  const resolved = deref(doc, schema);
  if (!isObject(resolved) || depth > 8) return {};
  const own = isObject(resolved['x-enum-aliases'])
    ? (resolved['x-enum-aliases'] as Record<string, string>)
    : {};
  const members = Array.isArray(resolved.anyOf) ? resolved.anyOf : [];
  return Object.assign({}, ...members.map((m) => enumAliasesOf(doc, m, depth + 1)), own);
}

/** A parameter another name stands for (`x-alias-of` on a query parameter): alias → canonical name. */
export function parameterAliases(doc: OpenApiDoc): Record<string, string> {
  const found: Record<string, string> = {};
  for (const { path, method } of operations(doc))
    for (const p of parametersOf(doc, path, method))
      if (typeof p['x-alias-of'] === 'string') found[p.name] = p['x-alias-of'];
  return found;
}

/** Paths that are another spelling of a path (`x-alias-of` on a path item): alias → canonical. */
export function pathAliases(doc: OpenApiDoc): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [path, item] of Object.entries(doc.paths))
    if (typeof item['x-alias-of'] === 'string') found[path] = item['x-alias-of'];
  return found;
}

/** One rule between parameters, as `components.x-cross-parameter-rules` states it. */
export type CrossRule =
  | { kind: 'not-after' | 'needs'; names: string[]; example: Record<string, unknown> }
  | { kind: 'one-of' | 'any-of'; groups: string[][]; operations?: string[] };

/** The contract's cross-parameter rules; an entry of no known kind is left out. */
export function crossRules(doc: OpenApiDoc): CrossRule[] {
  const list = doc.components?.['x-cross-parameter-rules'];
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown): CrossRule[] => {
    if (!isObject(entry)) return [];
    const operations = Array.isArray(entry.operations) ? entry.operations.map(String) : undefined;
    const example = isObject(entry.example) ? entry.example : {};
    for (const kind of ['not-after', 'needs'] as const)
      if (Array.isArray(entry[kind])) return [{ kind, names: entry[kind].map(String), example }];
    for (const kind of ['one-of', 'any-of'] as const)
      if (Array.isArray(entry[kind]))
        return [
          {
            kind,
            groups: entry[kind].map((g: unknown) => (Array.isArray(g) ? g.map(String) : [])),
            ...(operations === undefined ? {} : { operations }),
          },
        ];
    return [];
  });
}

/** Every parameter name a cross rule speaks of. */
export function namesOf(rule: CrossRule): string[] {
  return 'groups' in rule ? rule.groups.flat() : rule.names;
}

/**
 * Whether a cross rule applies to an operation: listed, or documenting every name it uses. A
 * POST's body schema is shared by both sides of the API, so its GET twin's parameters decide.
 */
export function appliesTo(
  rule: CrossRule,
  op: ContractOperation,
  all: ContractOperation[],
): boolean {
  if ('operations' in rule && rule.operations !== undefined)
    return rule.operations.includes(op.operationId);
  const twin = all.find((o) => o.path === op.path && o.method === 'GET') ?? op;
  const documented = new Set(twin.inputs.map((i) => i.name));
  return namesOf(rule).every((name) => documented.has(name));
}

/**
 * The inputs `published` required of an operation that the current contract leaves optional: a
 * client of that version may now leave them out.
 */
export function relaxedSince(
  published: ContractOperation | undefined,
  current: ContractOperation,
): string[] {
  if (published === undefined) return [];
  const now = new Map(current.inputs.map((i) => [i.name, i]));
  return published.inputs
    .filter((i) => i.required && now.get(i.name)?.required === false)
    .map((i) => i.name);
}

/** How an input takes free text: one text, a list of keywords, or not at all. */
export function textKindOf(doc: OpenApiDoc, input: Input): 'text' | 'keywords' | undefined {
  return textKind(doc, input.schema, 0);
}

function textKind(
  doc: OpenApiDoc,
  schema: unknown,
  depth: number,
): 'text' | 'keywords' | undefined {
  if (depth > 8) return undefined;
  const raw = isObject(schema) ? schema.$ref : undefined;
  if (typeof raw === 'string' && raw.endsWith('/KeywordList')) return 'keywords';
  const s = deref(doc, schema);
  if (!isObject(s)) return undefined;
  if (s.contentSchema !== undefined) return textKind(doc, s.contentSchema, depth + 1);
  const members = Array.isArray(s.anyOf) ? s.anyOf : [];
  const kinds = members.map((m) => textKind(doc, m, depth + 1));
  if (kinds.includes('keywords')) return 'keywords';
  if (kinds.includes('text')) return 'text';
  const free =
    s.type === 'string' &&
    s.enum === undefined &&
    s.pattern === undefined &&
    s.format === undefined &&
    s.contentMediaType === undefined;
  return free ? 'text' : undefined;
}
