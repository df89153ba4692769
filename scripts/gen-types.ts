// Regenerates src/generated/contract.ts (the types) and the parameter defaults module (in
// src/generated/ and, for the suite, in contract/suite/) from the contract; `--check` only
// reports staleness.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { defaultsUrls, generateDefaults, readGenerated } from './contract-defaults.ts';
import { generateContractTypes, typesUrl } from './contract-types.ts';

const root = new URL('../', import.meta.url);
const types = await generateContractTypes();
const defaults = await generateDefaults();
const outputs = [
  { url: typesUrl, text: types },
  ...defaultsUrls.map((url) => ({ url, text: defaults })),
];
let stale = false;
for (const { url, text } of outputs) {
  const name = fileURLToPath(url).slice(fileURLToPath(root).length);
  if ((await readGenerated(url)) === text) {
    console.log(`${name} is up to date with contract/openapi.yaml`);
  } else if (process.argv.includes('--check')) {
    console.error(`${name} is stale: run \`npm run types\` and commit the result`);
    stale = true;
  } else {
    await writeFile(url, text);
    console.log(`wrote ${name} from contract/openapi.yaml`);
  }
}
if (stale) process.exitCode = 1;
