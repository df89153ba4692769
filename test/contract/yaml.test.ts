import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isAlias, isNode, parse, parseDocument, visit } from 'yaml';

const contractDir = new URL('../../contract/', import.meta.url);

/** Every contract document: the current one and each published one. */
const files: [string, string][] = [
  'openapi.yaml',
  ...readdirSync(new URL('history/', contractDir))
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => `history/${name}`),
].map((name) => [`contract/${name}`, readFileSync(new URL(name, contractDir), 'utf8')]);

/**
 * Where a YAML 1.1 reader (SnakeYAML in Specmatic, PyYAML, Go's yaml.v2) sees another value than
 * a YAML 1.2 reader: a plain `yes`, `no`, `on`, `off` is a boolean there, a plain timestamp a date.
 */
function readingsDiffer(text: string): string[] {
  const found: string[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (isDeepStrictEqual(a, b)) return;
    // An object or a list, whose entries are walked by key (a list's by index).
    const plain = (v: unknown): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && !(v instanceof Date);
    if (plain(a) && plain(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of keys) walk(a[key], b[key], `${path}/${key}`);
      return;
    }
    found.push(`${path || '/'}: ${JSON.stringify(a)} in YAML 1.2, ${String(b)} in YAML 1.1`);
  };
  walk(parse(text, { version: '1.2' }), parse(text, { version: '1.1' }), '');
  return found;
}

/** Anchors (`&name`) and aliases (`*name`): Specmatic reads an alias as a plain string. */
function anchorsAndAliases(text: string): string[] {
  const found: string[] = [];
  visit(parseDocument(text), (_, node) => {
    if (isAlias(node)) found.push(`alias *${node.source}`);
    else if (isNode(node) && node.anchor !== undefined) found.push(`anchor &${node.anchor}`);
  });
  return found;
}

describe('the contract files read the same in every YAML reader', () => {
  it.each(files)('%s is the same document under YAML 1.1 and YAML 1.2', (_, text) => {
    expect(readingsDiffer(text)).toEqual([]);
  });

  it.each(files)('%s uses no anchors or aliases', (_, text) => {
    expect(anchorsAndAliases(text)).toEqual([]);
  });

  it('tells a plain yes and a plain timestamp apart from their quoted forms', () => {
    const text =
      'enum: [yes, "no"]\nexample: 2024-01-01T00:00:00Z\nquoted: "2024-01-01T00:00:00Z"\n';
    expect(readingsDiffer(text)).toEqual([
      '/enum/0: "yes" in YAML 1.2, true in YAML 1.1',
      `/example: "2024-01-01T00:00:00Z" in YAML 1.2, ${String(new Date('2024-01-01T00:00:00Z'))} in YAML 1.1`,
    ]);
  });

  it('finds an anchor and its alias', () => {
    const text = 'a: &shared {code: 400}\nb: *shared\n';
    expect(anchorsAndAliases(text)).toEqual(['anchor &shared', 'alias *shared']);
  });
});
