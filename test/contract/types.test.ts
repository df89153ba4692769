import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { defaultsUrls, generateDefaults, readGenerated } from '../../scripts/contract-defaults.ts';
import { generateContractTypes, readCommittedTypes } from '../../scripts/contract-types.ts';

it('keeps src/generated/contract.ts equal to what the contract generates', async () => {
  const committed = await readCommittedTypes();
  expect(committed, 'src/generated/contract.ts is stale: run `npm run types`').toBe(
    await generateContractTypes(),
  );
});

const root = fileURLToPath(new URL('../../', import.meta.url));
it.each(defaultsUrls.map((url) => [fileURLToPath(url).slice(root.length), url] as const))(
  'keeps %s equal to what the contract generates',
  async (name, url) => {
    expect(await readGenerated(url), `${name} is stale: run \`npm run types\``).toBe(
      await generateDefaults(),
    );
  },
);

it('generates the defaults the contract gives limit, page, sort_by and order_by', async () => {
  expect(await generateDefaults()).toMatch(
    /limit: 30,\n {2}order_by: 'desc',\n {2}page: 1,\n[\s\S]* {2}sort_by: 'created_at',\n/,
  );
});
