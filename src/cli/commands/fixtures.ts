import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { targetFromContract } from '../../../contract/suite/contract-target.ts';
import { loadContract } from '../../../contract/suite/openapi.ts';
import { parseTarget } from '../../../contract/suite/target.ts';
import { targetOf } from '../../hr/target.ts';
import { createStore } from '../../store/store.ts';
import { FIXTURE_FLAGS, fixturesFrom } from '../fixture-options.ts';
import { UsageError } from '../usage-error.ts';

export const FIXTURES_HELP = `hrmock fixtures: write the generated fixtures as JSON files

  --seed N          fixture seed (default 42)
  --profiles N      how many profiles (default 1000)
  --jobs N          how many jobs (default 300)
  --out DIR         folder to write sources.json, boards.json, profiles.json, jobs.json
                    (default: print one JSON document on stdout)`;

export const TARGET_HELP = `hrmock target: write a target, the keys hrmock check --target FILE may use

  --seed N           fixture seed, as for serve (default 42)
  --profiles N       how many profiles, as for serve (default 1000)
  --jobs N           how many jobs, as for serve (default 300)
  --from-contract    the keys of contract/openapi.yaml's own examples instead: the target for
                     prism mock contract/openapi.yaml, which answers those examples
                     (not with --seed, --profiles or --jobs)
  --out FILE         write the target there (default: print it on stdout)

Without --from-contract: the target the mock serves at /_mock/target for those fixtures.`;

export async function fixturesCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...FIXTURE_FLAGS, out: { type: 'string' } },
    strict: true,
  });
  const fixtures = fixturesFrom(values);
  if (values.out === undefined) {
    process.stdout.write(`${JSON.stringify(fixtures, null, 2)}\n`);
    return 0;
  }
  await mkdir(values.out, { recursive: true });
  for (const name of ['sources', 'boards', 'profiles', 'jobs'] as const) {
    await writeFile(
      join(values.out, `${name}.json`),
      `${JSON.stringify(fixtures[name], null, 2)}\n`,
    );
  }
  process.stdout.write(
    `wrote ${fixtures.profiles.length} profiles, ${fixtures.jobs.length} jobs, ${fixtures.sources.length} sources and ${fixtures.boards.length} boards (seed ${fixtures.seed}) to ${values.out}\n`,
  );
  return 0;
}

export async function targetCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...FIXTURE_FLAGS, 'from-contract': { type: 'boolean' }, out: { type: 'string' } },
    strict: true,
  });
  const target = values['from-contract'] ? contractTarget(values) : fixturesTarget(values);
  const text = `${JSON.stringify(target, null, 2)}\n`;
  if (values.out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  await writeFile(values.out, text);
  process.stdout.write(`target written to ${values.out}\n`);
  return 0;
}

function fixturesTarget(values: { seed?: string; profiles?: string; jobs?: string }): unknown {
  return targetOf(createStore(fixturesFrom(values)));
}

/** The contract's examples as a target, checked as hrmock check will read it. */
function contractTarget(values: Record<string, unknown>): unknown {
  const mixed = Object.keys(FIXTURE_FLAGS).find((flag) => values[flag] !== undefined);
  if (mixed !== undefined)
    throw new UsageError(
      `--from-contract takes the keys of the contract's examples, not generated fixtures: drop --${mixed}`,
    );
  const target = targetFromContract(loadContract());
  parseTarget(target, {}, "the target made of contract/openapi.yaml's examples");
  return target;
}
