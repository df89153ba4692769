#!/usr/bin/env node
// The CLI. An installed package runs its build (dist/). A checkout of the repository, which has
// the TypeScript sources and tsx (a devDependency), runs the sources, so they are never stale.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli.ts', import.meta.url);
let tsx;
try {
  tsx = existsSync(sources) ? import.meta.resolve('tsx/esm/api') : undefined;
} catch {
  tsx = undefined;
}
if (tsx !== undefined) {
  const { register } = await import(tsx);
  register();
  await import(sources.href);
} else {
  await import('../dist/src/cli.js');
}
