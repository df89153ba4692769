import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const spectral = createRequire(import.meta.url).resolve('@stoplight/spectral-cli/dist/index.js');
const root = fileURLToPath(new URL('../../', import.meta.url));

type Finding = { code: string; message: string; severity: number; path: string[] };

/**
 * Spectral's findings on `file`. It exits 0 with none, 1 with errors, its JSON report on stdout
 * either way; anything else (it crashed, could not read the ruleset) fails the test.
 */
async function lint(file: string, ruleset = '.spectral.yaml'): Promise<Finding[]> {
  const result = await run(
    process.execPath,
    [spectral, 'lint', file, '--ruleset', ruleset, '--format', 'json', '--quiet'],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: unknown; stdout?: string; stderr?: string }) => ({
      code: error.code,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  const findings = result.code === 0 || result.code === 1 ? parsed(result.stdout) : undefined;
  if (findings === undefined || (result.code === 1 && findings.length === 0)) {
    throw new Error(
      `Spectral could not lint ${file} (exit ${String(result.code)}): ${result.stderr}${result.stdout}`.trim(),
    );
  }
  return findings;
}

/** Spectral's JSON report, or undefined when stdout is not one (it prints nothing with no findings). */
function parsed(stdout: string): Finding[] | undefined {
  if (stdout.trim() === '') return [];
  try {
    const value = JSON.parse(stdout);
    return Array.isArray(value) ? (value as Finding[]) : undefined;
  } catch {
    return undefined;
  }
}

describe("the contract passes Spectral's oas ruleset", () => {
  it.each(['contract/openapi.yaml', 'contract/history/v1.0.0.yaml'])(
    '%s has no errors',
    async (file) => {
      const errors = (await lint(file)).filter((f) => f.severity === 0);
      expect(errors.map((e) => `${e.path.join('.')}: ${e.code} ${e.message}`)).toEqual([]);
    },
    60_000,
  );

  it('reports an error on a broken contract', async () => {
    const errors = (await lint('test/contract/fixtures/broken-contract.yaml')).filter(
      (f) => f.severity === 0,
    );
    expect(errors.length).toBeGreaterThan(0);
  }, 60_000);

  it('fails, rather than finding nothing, when Spectral cannot run', async () => {
    await expect(lint('contract/openapi.yaml', 'no-such-ruleset.yaml')).rejects.toThrow(
      /Spectral could not lint contract\/openapi.yaml \(exit \d+\)/,
    );
  }, 60_000);
});
