import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const spectral = createRequire(import.meta.url).resolve('@stoplight/spectral-cli/dist/index.js');
const root = fileURLToPath(new URL('../../', import.meta.url));

type Finding = { code: string; message: string; severity: number; path: string[] };

async function lint(file: string): Promise<Finding[]> {
  // Spectral exits 1 when it finds errors; its JSON report is on stdout either way.
  const result = await run(
    process.execPath,
    [spectral, 'lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }));
  return JSON.parse(result.stdout || '[]') as Finding[];
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
});
