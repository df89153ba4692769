// Regenerates src/generated/contract.ts (the types) and the parameter defaults module (in
// src/generated/ and, for the suite, in contract/suite/) from the contract, and the control page
// (src/generated/ui-page.ts) from src/ui/; `--check` only reports staleness.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { defaultsUrls, generateDefaults, readGenerated } from './contract-defaults.ts';
import { generateContractTypes, typesUrl } from './contract-types.ts';
import { generateUiPage, uiPageUrl } from './ui-page.ts';

const root = new URL('../', import.meta.url);
const types = await generateContractTypes();
const defaults = await generateDefaults();
const contract = 'contract/openapi.yaml';
const outputs = [
  { url: typesUrl, text: types, from: contract },
  ...defaultsUrls.map((url) => ({ url, text: defaults, from: contract })),
  { url: uiPageUrl, text: await generateUiPage(), from: 'src/ui/' },
];
let stale = false;
for (const { url, text, from } of outputs) {
  const name = fileURLToPath(url).slice(fileURLToPath(root).length);
  if ((await readGenerated(url)) === text) {
    console.log(`${name} is up to date with ${from}`);
  } else if (process.argv.includes('--check')) {
    console.error(`${name} is stale: run \`npm run types\` and commit the result`);
    stale = true;
  } else {
    await writeFile(url, text);
    console.log(`wrote ${name} from ${from}`);
  }
}
if (stale) process.exitCode = 1;
