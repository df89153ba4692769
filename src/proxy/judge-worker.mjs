// The proxy's judge on a worker thread: judging an answer (decode, parse, validate) costs more
// than forwarding it, so it runs beside the forwarding, never in its way. Plain JavaScript, shipped
// as is: from a checkout it loads the TypeScript sources through tsx, from the build the output.
import { existsSync } from 'node:fs';

const source = new URL('./judge-thread.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('./judge-thread.js');
}
