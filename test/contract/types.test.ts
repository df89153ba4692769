import { expect, it } from 'vitest';
import { generateContractTypes, readCommittedTypes } from '../../scripts/contract-types.ts';

it('keeps src/generated/contract.ts equal to what the contract generates', async () => {
  const committed = await readCommittedTypes();
  expect(committed, 'src/generated/contract.ts is stale: run `npm run types`').toBe(
    await generateContractTypes(),
  );
});
