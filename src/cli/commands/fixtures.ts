import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { targetOf } from '../../hr/target.ts';
import { createStore } from '../../store/store.ts';
import { FIXTURE_FLAGS, fixturesFrom } from '../fixture-options.ts';

export const FIXTURES_HELP = `hrmock fixtures: write the generated fixtures as JSON files

  --seed N          fixture seed (default 42)
  --profiles N      how many profiles (default 1000)
  --jobs N          how many jobs (default 300)
  --out DIR         folder to write sources.json, boards.json, profiles.json, jobs.json
                    (default: print one JSON document on stdout)`;

export const TARGET_HELP = `hrmock target: print the target hrmock check uses on the mock

  --seed N, --profiles N, --jobs N   as for serve`;

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
  const { values } = parseArgs({ args, options: FIXTURE_FLAGS, strict: true });
  const target = targetOf(createStore(fixturesFrom(values)));
  process.stdout.write(`${JSON.stringify(target, null, 2)}\n`);
  return 0;
}
