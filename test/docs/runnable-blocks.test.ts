import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../src/api/start-mock.ts';
import { CLI } from '../support/cli-entry.ts';
import { runBash } from '../support/run-bash.ts';
import { type RunnableBlock, runnableBlocks } from '../support/runnable-blocks.ts';
import { tempDir } from '../support/temp-dir.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'runnable-blocks-key';

/** An app's end-to-end tests: one search through whichever URL hrmock gave them, with the key. */
const E2E = `
const base = process.env.HRMOCK_PROXY_URL ?? process.env.HRMOCK_URL;
const target = JSON.parse(await (await import('node:fs/promises')).readFile('target.json', 'utf8'));
const query = new URLSearchParams({ source_keys: JSON.stringify(target.profiles.source_keys), limit: '2' });
const answer = await fetch(base + '/profiles/searching?' + query, { headers: { 'X-API-KEY': process.env.HRFLOW_API_KEY } });
console.log('e2e: ' + answer.status);
process.exit(answer.status === 200 ? 0 : 1);
`;

let mock: RunningMock;
let blocks: RunnableBlock[];

beforeAll(async () => {
  // The deployment the docs name: a small one answers each request quicker, the same way.
  mock = await startMock({ port: 0, apiKey: KEY, log: false, profiles: 300, jobs: 100 });
  const docs = (await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).sort();
  blocks = await runnableBlocks(root, ['README.md', ...docs.map((f) => `docs/${f}`)]);
});

afterAll(() => mock.close());

/**
 * A project as a CI job sees it: hrmock installed (its bin linked), an `e2e` script, the
 * target of the deployment (here the mock, which requires a key) written as the README shows.
 */
async function project(): Promise<string> {
  const dir = await tempDir('runnable');
  await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
  // The built CLI (test/support/cli-entry.ts) where an install links the package's bin.
  const link = join(dir, 'node_modules', '.bin', 'hrmock');
  await writeFile(
    link,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`,
    {
      mode: 0o755,
    },
  );
  const scripts = { e2e: 'node e2e.mjs' };
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'app', private: true, scripts }),
  );
  await writeFile(join(dir, 'e2e.mjs'), E2E);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the target file's own reference syntax
  const target = { ...mock.target, headers: { 'X-API-KEY': '${HRFLOW_API_KEY}' } };
  await writeFile(join(dir, 'target.json'), JSON.stringify(target, null, 2));
  return dir;
}

function bash(text: string, cwd: string) {
  return runBash(['-euo', 'pipefail', '-c', text], cwd, {
    ...process.env,
    STAGING_URL: mock.url,
    HRFLOW_API_KEY: KEY,
    GITHUB_RUN_ID: '4242',
    GITHUB_STEP_SUMMARY: join(cwd, 'step-summary.md'),
    CI: 'true',
  });
}

/**
 * What the prose right after a block says it prints: the \`…\` fragments right after the word
 * "prints" (\`prints \`a\` and \`b\`\`).
 */
async function promised(block: RunnableBlock): Promise<string[]> {
  const lines = (await readFile(join(root, block.file), 'utf8')).split('\n');
  const after = lines.slice(block.line + block.text.split('\n').length + 1);
  const end = after.findIndex((l) => l.startsWith('```'));
  const prose = (end < 0 ? after : after.slice(0, end)).join(' ');
  return [...prose.matchAll(/\bprints (`[^`]+`(?:(?:,| and|, and) `[^`]+`)*)/g)].flatMap(
    (sentence) => [...(sentence[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string),
  );
}

describe('the shell blocks the README and docs/ mark runnable', () => {
  it('are there to run: the README has its CI recipes among them', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(new Set(blocks.map((b) => b.file))).toEqual(
      new Set([
        'README.md',
        'docs/ci.md',
        'docs/cli.md',
        'docs/contract-rules.md',
        'docs/proxy.md',
      ]),
    );
  });

  it('know what the README promises its release gate prints', async () => {
    const gate = blocks.find((b) => b.file === 'README.md' && b.text.includes('--min-coverage'));
    expect(await promised(gate as RunnableBlock)).toEqual(['0 failed, 0 skipped', 'coverage 100%']);
  });

  it('run as printed against a started mock that requires a key, and print what the docs quote', async () => {
    // Two at a time: each waits on the processes it starts, and each has a project of its own.
    const outcomes = await eachTwoAtATime(blocks, async (block) => {
      const { code, output } = await bash(block.text, await project());
      const missing = (await promised(block)).filter((fragment) => !output.includes(fragment));
      return { where: `${block.file}:${block.line}`, code, missing, output };
    });
    for (const { where, code, missing, output } of outcomes) {
      expect({ where, code, missing }, output).toEqual({ where, code: 0, missing: [] });
    }
  }, 600_000);
});

/** `work` on each item, at most two at once; the results in the items' order. */
async function eachTwoAtATime<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}
