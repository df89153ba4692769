// Regenerates src/generated/contract.ts from the contract; `--check` only reports staleness.
import { writeFile } from 'node:fs/promises';
import { generateContractTypes, readCommittedTypes, typesUrl } from './contract-types.ts';

const generated = await generateContractTypes();
const committed = await readCommittedTypes();
if (committed === generated) {
  console.log('src/generated/contract.ts is up to date with contract/openapi.yaml');
} else if (process.argv.includes('--check')) {
  console.error('src/generated/contract.ts is stale: run `npm run types` and commit the result');
  process.exitCode = 1;
} else {
  await writeFile(typesUrl, generated);
  console.log('wrote src/generated/contract.ts from contract/openapi.yaml');
}
