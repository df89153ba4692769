import { fileURLToPath } from 'node:url';

/**
 * The CLI as the integration tests start it: the build, `dist/src/cli.js`, which the integration
 * project's global setup (test/support/built-cli.ts) brings up to date with the sources first.
 * It starts with no TypeScript loader: about half a second less CPU a process than
 * `bin/hrmock.js` from a checkout, which runs the sources through tsx (test/contract/check.test.ts
 * still starts that one).
 */
export const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
