import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { canRun } from './skips.ts';

const run = promisify(execFile);

/** The jar the npm `specmatic` package ships (its wrapper runs `java -jar` on it, nothing more). */
export const specmaticJar = join(
  dirname(createRequire(import.meta.url).resolve('specmatic/package.json')),
  'specmatic.jar',
);

/**
 * Whether Specmatic can run here (Java 17 or newer): a missing one fails its tests on CI (`CI=true`
 * or `HRMOCK_REQUIRE_JAVA=1`) and skips them elsewhere, named in the run's summary.
 */
export function javaAvailable(): boolean {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const major = Number(/version "(?:1\.)?(\d+)/.exec(`${probe.stderr}${probe.stdout}`)?.[1]);
  const found = probe.status === 0 ? `Java ${major} is on PATH` : '`java` is not on PATH';
  return canRun(
    {
      tests: 'the Specmatic tests',
      missing: `Specmatic needs Java 17 or newer, and ${found}`,
      install: 'apt-get install openjdk-17-jre-headless',
      requiredBy: 'HRMOCK_REQUIRE_JAVA',
    },
    probe.status === 0 && major >= 17,
  );
}

/**
 * A Specmatic run is short and the machine may have two cores: the quick compiler alone and the
 * serial collector halve its time here (C2's compiler threads and a parallel collector compete
 * with Specmatic for the cores).
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/** Runs the jar; Specmatic's exit status is part of its answer, so it never throws on one. */
export async function specmatic(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeout?: number },
): Promise<{ code: number; out: string }> {
  const result = await run('java', [...JVM_OPTIONS, '-jar', specmaticJar, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeout ?? 240_000,
  }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (error: { code?: unknown; stdout?: string; stderr?: string; killed?: boolean }) => {
      if (typeof error.code !== 'number' || error.killed) throw error;
      return { code: error.code, stdout: error.stdout ?? '', stderr: error.stderr ?? '' };
    },
  );
  return { code: result.code, out: `${result.stdout}\n${result.stderr}` };
}

export type Pair = { name: string; older: string; newer: string; extension: 'yaml' | 'json' };
export type Verdict = { compatible: boolean; report: string };

/**
 * Specmatic's `backward-compatibility-check` on many pairs in one JVM. The command compares the
 * specifications a branch changes with their versions on a base branch, so each pair becomes one
 * file in a scratch git repository: `older` committed on `base`, `newer` on the branch checked.
 */
export async function backwardCompatibility(pairs: Pair[]): Promise<Map<string, Verdict>> {
  const repo = await mkdtemp(join(tmpdir(), 'hrmock-specmatic-bcc-'));
  const git = (...args: string[]) =>
    run(
      'git',
      [
        '-c',
        'user.name=hrmock',
        '-c',
        'user.email=hrmock@localhost',
        '-c',
        'commit.gpgsign=false',
      ].concat(args),
      { cwd: repo },
    );
  const fileOf = (pair: Pair) => join(repo, pair.name, `openapi.${pair.extension}`);
  try {
    await git('init', '-q', '-b', 'base');
    for (const pair of pairs) {
      await mkdir(join(repo, pair.name));
      await writeFile(fileOf(pair), pair.older);
    }
    await git('add', '.');
    await git('commit', '-q', '-m', 'published');
    await git('checkout', '-q', '-b', 'checked');
    for (const pair of pairs) await writeFile(fileOf(pair), pair.newer);
    await git('commit', '-q', '-a', '-m', 'current');
    // Forty-odd pairs in one JVM take minutes on a busy two-core machine: within beforeAll's 600 s.
    const { out } = await specmatic(['backward-compatibility-check', '--base-branch', 'base'], {
      cwd: repo,
      timeout: 540_000,
    });
    const verdicts = new Map<string, Verdict>();
    for (const pair of pairs) {
      const file = fileOf(pair);
      const start = out.indexOf(`Running the check for ${file}:`);
      const verdictAt = out.indexOf(`Verdict for spec ${file}:`, start);
      if (start < 0 || verdictAt < 0) continue;
      const verdict = out.slice(verdictAt, out.indexOf('\n', out.indexOf('\n', verdictAt) + 1));
      verdicts.set(pair.name, {
        compatible: verdict.includes('(COMPATIBLE)'),
        report: out.slice(start, verdictAt).trim(),
      });
    }
    return verdicts;
  } finally {
    await rm(repo, { recursive: true, force: true });
  }
}
