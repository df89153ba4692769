import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The integration project's global setup: dist/ built from the sources as they are, as `npm ci`
 * builds it (`scripts/prepare.mjs`: nothing to do when dist/ is current, a build of ~20 s after a
 * change), so that the CLI the tests start (test/support/cli-entry.ts) is never stale.
 */
export default function setup(): void {
  const prepare = fileURLToPath(new URL('../../scripts/prepare.mjs', import.meta.url));
  execFileSync(process.execPath, [prepare], { stdio: ['ignore', 'inherit', 'inherit'] });
}
