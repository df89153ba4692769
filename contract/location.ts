import { fileURLToPath } from 'node:url';

// Where the contract lives: `contract/` in the sources, `dist/contract/` in the package (the
// build mirrors the repository). Node code finds it here; the browser bundle inlines the text
// that `src/http/contract-doc.ts` reads at build time, so that file names it itself.
export const CONTRACT_DIR_URL = new URL('./', import.meta.url);
export const CONTRACT_URL = new URL('openapi.yaml', CONTRACT_DIR_URL);
export const HISTORY_DIR_URL = new URL('history/', CONTRACT_DIR_URL);
export const CONTRACT_FILE = fileURLToPath(CONTRACT_URL);
