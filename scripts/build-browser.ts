// Builds dist/browser/: `hrmock/browser` (hrmock-browser.js) and a ready Service Worker (hrmock-sw.js).
import { relative } from 'node:path';
import { buildBrowser } from './browser-bundle.ts';

for (const file of await buildBrowser()) {
  console.log(
    `wrote ${relative(process.cwd(), file.path)} (${(file.bytes / 1024).toFixed(0)} KiB)`,
  );
}
