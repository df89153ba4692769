import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIG_OUTPUT,
  consumerProject,
  copyWorkingTree,
  npm,
  root,
  run,
  runNode,
} from './consumer.ts';

// What a user gets from `npm install hrmock`: the packed tarball installed, production
// dependencies only, into an empty ESM project with no TypeScript loader.
const project = consumerProject('consumer');
const checkout = mkdtempSync(join(tmpdir(), 'hrmock-pack-'));
const bin = join(project, 'node_modules/.bin/hrmock');
/** What `npm pack --json` says of the tarball. */
type Packed = { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
let packed: Packed;
/** All `npm pack --json` printed: stdout, and stderr (npm's and prepack's progress). */
let packOutput: { stdout: string; stderr: string };

beforeAll(async () => {
  // `npm pack` runs prepack, which builds dist/. It packs a copy of the checkout: built in place,
  // dist/browser/ would be rewritten while test/browser/ builds and serves the same files.
  await copyWorkingTree(checkout);
  symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  packOutput = await run(npm, ['pack', '--pack-destination', project, '--json'], {
    cwd: checkout,
    maxBuffer: BIG_OUTPUT,
  });
  packed = (JSON.parse(packOutput.stdout) as Packed[])[0] as Packed;
  await run(
    npm,
    [
      'install',
      '--omit=dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      join(project, packed.filename),
    ],
    { cwd: project, maxBuffer: BIG_OUTPUT },
  );
}, 300_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(checkout, { recursive: true, force: true });
});

/** Type-checks `file` in the project as a user's `tsc` would: exit status and what it printed. */
async function typeCheck(
  sources: Record<string, string>,
  { nodeTypes = true } = {},
): Promise<{ code: number; stdout: string }> {
  const files = Object.keys(sources);
  for (const file of files) writeFileSync(join(project, file), sources[file] as string);
  const config = `tsconfig.${files.join('+')}.json`;
  writeFileSync(
    join(project, config),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        lib: ['ES2023', 'DOM'],
        // Without Node's types, every declaration the consumer reaches is checked, ours included.
        ...(nodeTypes
          ? { types: ['node'], typeRoots: [join(root, 'node_modules/@types')] }
          : { types: [], skipLibCheck: false }),
      },
      files,
    }),
  );
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  return run(process.execPath, [tsc, '-p', config], { cwd: project }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

const node = (file: string, source: string) => runNode(project, file, source);

/** The package.json of every package installed under `dir`, scoped ones and nested ones included. */
function* installedManifests(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (name.startsWith('@')) {
      yield* installedManifests(path);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) yield manifest;
    yield* installedManifests(join(path, 'node_modules'));
  }
}

describe('hrmock installed from its tarball', () => {
  it('installs without a TypeScript loader or Prism', () => {
    expect(existsSync(join(project, 'node_modules/hrmock/dist/src/index.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/@stoplight/prism-cli'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/hrmock/src'))).toBe(false);
  });

  it('installs no production dependency that runs an install script', () => {
    const withScripts: string[] = [];
    for (const manifest of installedManifests(join(project, 'node_modules'))) {
      const { name, scripts = {} } = JSON.parse(readFileSync(manifest, 'utf8'));
      const hooks = ['preinstall', 'install', 'postinstall'].filter((h) => scripts[h]);
      if (hooks.length > 0) withScripts.push(`${name}: ${hooks.join(', ')}`);
    }
    expect(withScripts).toEqual([]);
    expect(existsSync(join(project, 'node_modules/swagger-ui-dist'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/@scarf/scarf'))).toBe(false);
  });

  it('serves with npx hrmock serve and answers', async () => {
    const child = spawn(bin, ['serve', '--port', '0', '--quiet', '--profiles', '200'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`no URL in 30 s:\n${output}`)), 30_000);
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const found = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
          if (found) {
            clearTimeout(timer);
            resolve(found);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
      });
      const response = await fetch(`${url}/_mock/target`);
      expect(response.status).toBe(200);
      expect((await response.json()).data.profiles.source_keys).toHaveLength(3);
      // /docs works from the files the package ships, with no swagger-ui-dist installed.
      expect((await fetch(`${url}/docs`)).status).toBe(200);
      const bundle = await fetch(`${url}/docs/assets/swagger-ui-bundle.js`);
      expect(bundle.status).toBe(200);
      expect((await bundle.text()).length).toBeGreaterThan(100_000);
      expect((await fetch(`${url}/docs/openapi.json`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await new Promise<[number | null]>((resolve) =>
      child.once('exit', (c) => resolve([c])),
    );
    expect(code).toBe(0);
  }, 60_000);

  it('serves a fixtures folder and reloads it on a worker, as the package ships them', async () => {
    const fixtures = join(project, 'own-fixtures');
    const next = join(project, 'next-fixtures');
    for (const [out, profiles] of [
      [fixtures, '5'],
      [next, '7'],
    ] as const)
      await run(bin, ['fixtures', '--profiles', profiles, '--jobs', '2', '--out', out], {
        cwd: project,
      });
    const child = spawn(
      bin,
      ['serve', '--port', '0', '--quiet', '--fixtures', fixtures, '--fixtures-mode', 'replace'],
      { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const seen = (text: () => string, pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (pattern.test(text())) {
            clearInterval(timer);
            resolve();
          }
        }, 50);
        child.once('exit', (code) => {
          clearInterval(timer);
          reject(new Error(`exited ${code}:\n${out}${err}`));
        });
      });
    try {
      await seen(() => out, /Target/);
      expect(out).toMatch(/hrmock: 5 profiles and 2 jobs/);
      renameSync(join(next, 'profiles.json'), join(fixtures, 'profiles.json'));
      await seen(() => err, /reloaded .*: 7 profiles/);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  // Every rule runs from the installed package in examples/vitest (below); here, plain .mjs.
  it('runs contract rules green from plain .mjs with startMock and runCheck', async () => {
    const { stdout } = await node(
      'check.mjs',
      `import { startMock } from 'hrmock';
import { runCheck } from 'hrmock/check';
const mock = await startMock({ profiles: 300, jobs: 60 });
const report = await runCheck({ baseUrl: mock.url, rules: ['ENV', 'GRD-DEFAULT', 'ADDITIVE'] });
await mock.close();
console.log(JSON.stringify({ error: report.error, passed: report.passed, failed: report.failed, rules: report.results.map((r) => r.id) }));
`,
    );
    expect(JSON.parse(stdout)).toEqual({
      passed: 3,
      failed: 0,
      rules: ['ENV', 'GRD-DEFAULT', 'ADDITIVE'],
    });
  }, 120_000);

  it('loads the mock from hrmock, and the suite and the proxy from their own entries', async () => {
    const { stdout } = await node(
      'entries.mjs',
      `const main = await import('hrmock');
const check = await import('hrmock/check');
const proxy = await import('hrmock/proxy');
console.log(JSON.stringify([Object.keys(main).sort(), Object.keys(check), Object.keys(proxy)]));
`,
    );
    expect(JSON.parse(stdout)).toEqual([
      ['buildFixtures', 'createApp', 'lazyFixtures', 'startMock', 'startServer'],
      ['runCheck'],
      ['startProxy'],
    ]);
  }, 60_000);

  it('imports neither the contract suite nor the proxy when hrmock is imported', () => {
    const dist = join(project, 'node_modules/hrmock/dist');
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      // What loads with the file: its static imports and re-exports (`import()` waits for a call).
      const pattern =
        /(?:^|\n)\s*(?:import|export)\s[^'";]*?\bfrom\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g;
      for (const match of readFileSync(file, 'utf8').matchAll(pattern))
        visit(join(dirname(file), (match[1] ?? match[2]) as string));
    };
    visit(join(dist, 'src/index.js'));
    const files = [...reached].map((file) => relative(dist, file));
    expect(files).toContain('src/api/start-mock.js');
    expect(
      files.filter((f) => f.startsWith('contract/suite/') || f.startsWith('src/proxy')),
    ).toEqual([]);
  });

  it('loads from CommonJS through require', async () => {
    const { stdout } = await node(
      'app.cjs',
      `const { createApp, lazyFixtures } = require('hrmock');
const app = createApp({ data: lazyFixtures({ profiles: 50, jobs: 10 }), log: false });
app.request('/_mock/target').then((r) => console.log(r.status));
`,
    );
    expect(stdout.trim()).toBe('200');
  }, 60_000);

  it('says in one line how to add Prism when check --via-prism needs it', async () => {
    const failed = await run(bin, ['check', '--via-prism'], { cwd: project }).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr.trim()).toBe(
      'hrmock: --via-prism needs Prism, an optional peer dependency: npm install --save-dev @stoplight/prism-cli@5.14.2',
    );
  }, 60_000);

  // The consumer passing means something only because a misuse of the same types, checked in
  // the same program, fails: every error is the misuse's.
  it('type-checks a TypeScript consumer against the shipped declarations, and fails a misuse', async () => {
    const { code, stdout } = await typeCheck({
      'consumer.ts': `import { createApp, lazyFixtures, type Profile, startMock } from 'hrmock';
import { createMockFetch, type JournalEntry, type MockControls, mockControls } from 'hrmock/browser';
import { type Report, runCheck } from 'hrmock/check';
import { type ProxyReport, startProxy } from 'hrmock/proxy';

const mock = await startMock({ seed: 1, port: 0 });
const proxied: ProxyReport = await (await startProxy({ upstream: mock.url })).close();
const report: Report = await runCheck({ baseUrl: mock.url, timeoutMs: 5_000 });
const failed: string[] = report.results.filter((r) => r.outcome.status === 'fail').map((r) => r.id);
const first: Profile | undefined = undefined;
const app = createApp({ data: lazyFixtures({ profiles: 10 }), log: false });
const fetchMock = createMockFetch({ seed: 1 });
const scenario = fetchMock.use({ path: '/profiles/searching', respond: { status: 429 }, times: 1 });
const sent: JournalEntry[] = fetchMock.requests({ path: '/profiles/searching' });
fetchMock.reset();
const controls: MockControls = mockControls({ origin: mock.url });
// @ts-expect-error: no such fault
fetchMock.use({ path: '/profiles/searching', respond: { fault: 'boom' } });
export { app, controls, failed, fetchMock, first, proxied, scenario, sent };
// @ts-expect-error: startMock takes no such option
await startMock({ colour: 'blue' });
`,
      'misuse.ts': `import { startMock } from 'hrmock';
import { runCheck } from 'hrmock/check';

const mock = await startMock({ port: 0 });
const port: number = mock.url;
await runCheck({ baseUrl: mock.url, timeoutMs: '5 s' });
export { port };
`,
    });
    const errors = stdout.split('\n').filter((line) => /^\S+\.ts\(\d+,\d+\): error /.test(line));
    expect(errors.filter((line) => !line.startsWith('misuse.ts('))).toEqual([]);
    expect(stdout).toMatch(
      /^misuse\.ts\(5,7\): error TS2322: Type 'string' is not assignable to type 'number'/m,
    );
    expect(stdout).toMatch(/^misuse\.ts\(6,\d+\): error TS2322: .*'string'.*'number'/m);
    expect(code).toBeGreaterThan(0);
  }, 120_000);

  it("runs examples/vitest against the installed package, as a user's project would", async () => {
    const example = join(project, 'vitest-example');
    cpSync(join(root, 'examples/vitest'), example, { recursive: true });
    rmSync(join(example, 'tsconfig.json'));
    // The test runner is the user's own dev dependency: lend them the repository's.
    symlinkSync(join(root, 'node_modules/vitest'), join(project, 'node_modules/vitest'), 'dir');
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const { stdout } = await run(process.execPath, [vitest, 'run', '--root', example], {
      cwd: example,
      timeout: 120_000,
    });
    expect(stdout).toMatch(/5 passed/);
  }, 150_000);

  it('type-checks a consumer of hrmock/check and hrmock/browser without Node types', async () => {
    const { code, stdout } = await typeCheck(
      {
        'no-node.ts': `import { createMockFetch } from 'hrmock/browser';
import { type Report, runCheck } from 'hrmock/check';

const report: Promise<Report> = runCheck({ baseUrl: 'http://127.0.0.1:4010' });
export { createMockFetch, report };
`,
      },
      { nodeTypes: false },
    );
    expect(stdout).toBe('');
    expect(code).toBe(0);
  }, 120_000);
});

// The tarball itself, from `npm pack --json`: what a user downloads.
describe('the hrmock tarball', () => {
  it('is described by npm pack --json in JSON alone, the build saying its progress on stderr', () => {
    expect(() => JSON.parse(packOutput.stdout)).not.toThrow();
    expect(packOutput.stderr).toMatch(/hrmock: building dist\//);
    expect(packOutput.stdout).not.toMatch(/building|built dist/);
  });

  it('packs into less than 1.3 MB', () => {
    // 1.47 MB when it shipped the Service Worker bundle and the contract twice; 1.18 MB without.
    expect(packed.size).toBeLessThan(1_300_000);
  });

  it('ships one browser bundle', () => {
    const bundles = packed.files.map((f) => f.path).filter((p) => p.startsWith('dist/browser/'));
    expect(bundles).toEqual(['dist/browser/hrmock-browser.js']);
  });

  it('ships the contract once, where the code reads it', () => {
    const contracts = packed.files.map((f) => f.path).filter((p) => p.endsWith('openapi.yaml'));
    expect(contracts).toEqual(['dist/contract/openapi.yaml']);
    expect(packed.files.map((f) => f.path)).toContain('dist/contract/admin.yaml');
    expect(packed.files.filter((f) => f.path.startsWith('contract/'))).toEqual([]);
  });

  it('ships no TypeScript source, test or build stamp', () => {
    const stray = packed.files
      .map((f) => f.path)
      .filter((p) => /(^src\/|\.test\.|(?<!\.d)\.ts$|build-inputs)/.test(p));
    expect(stray).toEqual([]);
  });

  it('declares @types/node, which its Node entry points use, as an optional peer', () => {
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules/hrmock/package.json'), 'utf8'),
    );
    expect(manifest.peerDependencies['@types/node']).toBeDefined();
    expect(manifest.peerDependenciesMeta['@types/node']).toEqual({ optional: true });
  });
});
