import { readFile } from 'node:fs/promises';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

export const contractUrl = new URL('../contract/openapi.yaml', import.meta.url);
export const typesUrl = new URL('../src/generated/contract.ts', import.meta.url);

/** The TypeScript types of contract/openapi.yaml, as openapi-typescript writes them. */
export async function generateContractTypes(): Promise<string> {
  const ast = await openapiTS(contractUrl, { alphabetize: true, immutable: false });
  return `${COMMENT_HEADER}// Generated from contract/openapi.yaml by \`npm run types\`. Do not edit.\n\n${astToString(ast)}`;
}

/** The types file as it is on disk, or null when it does not exist. */
export async function readCommittedTypes(): Promise<string | null> {
  try {
    return await readFile(typesUrl, 'utf8');
  } catch {
    return null;
  }
}
