import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layers of src/ (docs/architecture.md) import only downwards, with no circle. Read from the
// files themselves: a back-import added anywhere fails here.
const root = fileURLToPath(new URL('../', import.meta.url));

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** Every relative import of every file under src/, as repository paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pattern =
    /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(pattern)) {
      const spec = (match[1] ?? match[2]) as string;
      targets.push(relative(root, resolve(dirname(file), spec)));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/** `src/hr/x.ts` → `hr`; `contract/suite/x.ts` → `contract/suite`. */
function layerOf(path: string): string {
  if (path.startsWith('contract/suite/')) return 'contract/suite';
  const parts = path.split('/');
  if (parts[0] !== 'src') return parts[0] as string;
  return parts.length > 2 ? (parts[1] as string) : `src/${parts[1]}`;
}

/** What each layer may import besides itself. */
const ALLOWED: Record<string, string[]> = {
  generated: [],
  engine: [],
  store: ['engine', 'generated'],
  hr: ['store', 'engine', 'generated'],
  http: ['hr', 'store', 'engine', 'generated'],
  node: ['http', 'hr', 'store', 'engine', 'generated'],
  browser: ['http', 'hr', 'store', 'engine', 'generated', 'mocks'],
  recording: ['http', 'hr', 'store', 'engine', 'generated'],
  proxy: ['node', 'recording', 'http', 'hr', 'store', 'engine', 'generated', 'contract/suite'],
  api: [
    'proxy',
    'recording',
    'node',
    'http',
    'hr',
    'store',
    'engine',
    'generated',
    'mocks',
    'contract/suite',
  ],
  cli: [
    'api',
    'proxy',
    'recording',
    'node',
    'http',
    'hr',
    'store',
    'engine',
    'generated',
    'mocks',
    'src/prism.ts',
    'contract/suite',
  ],
};

/** The only files of src/ that may use the conformance suite, and why. */
const SUITE_USERS = new Set([
  'src/cli/commands/check.ts', // runs the suite
  'src/cli/commands/check-options.ts', // check's help names the suite's default pace
  'src/api/run-check.ts', // runs the suite
  'src/api/answer-check.ts', // checks scenario bodies with the suite's validator, imported on first use
  'src/cli/fixtures-dir.ts', // checks a user's fixtures with the suite's contract validator
  'src/check.ts', // the package's hrmock/check entry: runCheck and its types
  'src/proxy/live-traffic.ts', // judges live exchanges with the suite's rules
  'src/proxy/judge-queue.ts', // parses the suite's contract once and hands it to each judge thread
  'src/proxy/proxy-report.ts', // shows the proxy's verdicts with the suite's reporters
  'src/cli/commands/proxy.ts', // the suite's reporter names for --reporter
  'src/cli/commands/fixtures.ts', // hrmock target --from-contract: the suite's target of the contract's examples
  'src/cli/report-outputs.ts', // pairs --reporter with --output and renders the suite's reports
]);

const graph = importGraph();

describe('the layers of src/', () => {
  it('reads imports from every source file', () => {
    expect(graph.size).toBeGreaterThan(80);
    expect(graph.get('src/hr/requests.ts')).toContain('src/hr/queries.ts');
  });

  it.each(Object.keys(ALLOWED))('%s imports only the layers below it', (layer) => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      if (layerOf(file) !== layer) continue;
      for (const target of targets) {
        const to = layerOf(target);
        if (to !== layer && !ALLOWED[layer]?.includes(to) && !ALLOWED[layer]?.includes(target))
          wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('uses contract/suite only where checks are run', () => {
    const users = [...graph]
      .filter(([, targets]) => targets.some((t) => t.startsWith('contract/suite/')))
      .map(([file]) => file);
    expect(users.filter((file) => !SUITE_USERS.has(file))).toEqual([]);
  });

  it('has no import circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      path.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'open')
          circles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
        else if (state.get(next) === undefined) visit(next);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });
});

/**
 * The relative imports of `file` and of what it imports outside src/ (type-only ones erased, so
 * not followed), as [importer, target, typeOnly], repository paths.
 */
function importsFrom(file: string, seen = new Set<string>()): [string, string, boolean][] {
  if (seen.has(file)) return [];
  seen.add(file);
  const found = importsOf(file);
  for (const [, target, typeOnly] of importsOf(file))
    if (!typeOnly && !target.startsWith('src/'))
      found.push(...importsFrom(join(root, target), seen));
  return found;
}

// The linear-scan reference reads parameters and measures distances its own way, so that a
// parsing or default bug of src/hr cannot hide in it: from src/ it takes the plain data shapes
// of src/store/types.ts, as types, and nothing else.
describe('the linear-scan reference (test/hr/reference/)', () => {
  const seen = new Set<string>();
  const imports = [...sources(join(root, 'test/hr/reference'))].flatMap((file) =>
    importsFrom(file, seen),
  );

  it('reads its imports, the data shapes it may use among them', () => {
    expect(imports.some(([, target]) => target === 'src/store/types.ts')).toBe(true);
    expect(imports.some(([, target]) => target === 'test/support/sides.ts')).toBe(true);
  });

  it('takes nothing from src/ but the types of src/store/types.ts', () => {
    const wrong = imports
      .filter(([, target]) => target.startsWith('src/'))
      .filter(([, target, typeOnly]) => !(typeOnly && target === 'src/store/types.ts'))
      .map(([file, target]) => `${file} -> ${target}`);
    expect(wrong).toEqual([]);
  });
});

// `import 'hrmock'` is the mock: the contract suite (`hrmock/check`) and the proxy (`hrmock/proxy`)
// are entries of their own, and the main one loads neither (types aside: they load nothing).
describe("the package's main entry (src/index.ts)", () => {
  /** Every file a run-time import reaches from `file`, as repository paths. */
  function reached(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const [, target, typeOnly] of importsOf(file))
      if (!typeOnly) reached(join(root, target), seen);
    return seen;
  }
  const files = [...reached(join(root, 'src/index.ts'))].map((file) => relative(root, file));

  it('reaches the mock: startMock, createApp, the fixtures', () => {
    expect(files).toContain('src/api/start-mock.ts');
    expect(files).toContain('src/http/app.ts');
    expect(files).toContain('mocks/lazy-fixtures.ts');
  });

  it('reaches neither contract/suite nor src/proxy/', () => {
    const wrong = files.filter((f) => f.startsWith('contract/suite/') || f.startsWith('src/proxy'));
    expect(wrong).toEqual([]);
  });

  it('leaves them to hrmock/check and hrmock/proxy, which reach them', () => {
    const check = [...reached(join(root, 'src/check.ts'))].map((file) => relative(root, file));
    const proxy = [...reached(join(root, 'src/proxy.ts'))].map((file) => relative(root, file));
    expect(check.some((f) => f.startsWith('contract/suite/'))).toBe(true);
    expect(proxy.some((f) => f.startsWith('src/proxy/'))).toBe(true);
  });
});

/** The relative imports of a file, as [importer, target, typeOnly]; `export … from` included. */
function importsOf(file: string): [string, string, boolean][] {
  const pattern = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]/g;
  return [...readFileSync(file, 'utf8').matchAll(pattern)].map((match) => [
    relative(root, file),
    relative(root, resolve(dirname(file), match[2] as string)),
    match[1] !== undefined,
  ]);
}
