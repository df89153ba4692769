import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadContract } from '../../contract/suite/openapi.ts';
import { ContractValidator } from '../../contract/suite/validator.ts';
import type { Container, StoreData } from '../domain/types.ts';

export type FixturesMode = 'merge' | 'replace';

export type Loaded =
  | { ok: true; data: StoreData; counts: Record<string, number> }
  | { ok: false; problems: string[] };

const FILES = [
  ['sources', 'Container'],
  ['boards', 'Container'],
  ['profiles', 'Profile'],
  ['jobs', 'Job'],
] as const;

const MAX_PROBLEMS = 10;
let validator: ContractValidator | undefined;

type List<T> = { readonly length: number; at(index: number): T | undefined };
type Keyed = { key: string };

/**
 * Reads `sources.json`, `boards.json`, `profiles.json`, `jobs.json` (any of them, as
 * `hrmock fixtures --out DIR` writes them) and checks every object against the contract. With
 * `merge` they join the generated data (an object with a generated key replaces it); with
 * `replace` they are all the data. Problems name the file and the path in it.
 */
export async function loadFixturesDir(
  dir: string,
  mode: FixturesMode,
  generated: StoreData,
): Promise<Loaded> {
  validator ??= new ContractValidator(loadContract());
  const problems: string[] = [];
  const note = (problem: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
  };
  let present: string[];
  try {
    present = await readdir(dir);
  } catch (error) {
    return { ok: false, problems: [`cannot read the folder ${dir}: ${(error as Error).message}`] };
  }
  const loaded: Partial<Record<(typeof FILES)[number][0], Keyed[]>> = {};
  for (const [name, schema] of FILES) {
    const file = `${name}.json`;
    if (!present.includes(file)) continue;
    let json: unknown;
    try {
      json = JSON.parse(await readFile(join(dir, file), 'utf8'));
    } catch (error) {
      note(`${file}: not JSON (${(error as Error).message})`);
      continue;
    }
    if (!Array.isArray(json)) {
      note(`${file}: must be a JSON array of ${name}`);
      continue;
    }
    const seen = new Set<string>();
    json.forEach((item, i) => {
      const verdict = (validator as ContractValidator).validateSchema(schema, item);
      if (!verdict.ok)
        for (const error of verdict.errors.slice(0, 3))
          note(`${file}: [${i}]${error.startsWith('(root)') ? error.slice(6) : error}`);
      const key = (item as Keyed | null)?.key;
      if (typeof key === 'string' && seen.has(key))
        note(`${file}: [${i}].key ${key} appears twice`);
      if (typeof key === 'string') seen.add(key);
    });
    loaded[name] = json as Keyed[];
  }
  if (Object.keys(loaded).length === 0 && problems.length === 0) {
    note(`${dir} holds none of sources.json, boards.json, profiles.json, jobs.json`);
  }
  const sources = combineContainers(
    mode,
    generated.sources,
    loaded.sources as Container[] | undefined,
  );
  const boards = combineContainers(
    mode,
    generated.boards,
    loaded.boards as Container[] | undefined,
  );
  checkContainers('profiles.json', 'source_key', loaded.profiles, sources, note);
  checkContainers('jobs.json', 'board_key', loaded.jobs, boards, note);
  if (problems.length > 0) return { ok: false, problems };
  const profiles = combine(mode, generated.profiles as List<Keyed>, loaded.profiles);
  const jobs = combine(mode, generated.jobs as List<Keyed>, loaded.jobs);
  return {
    ok: true,
    data: { sources, boards, profiles, jobs } as unknown as StoreData,
    counts: {
      sources: sources.length,
      boards: boards.length,
      profiles: profiles.length,
      jobs: jobs.length,
    },
  };
}

function combineContainers(
  mode: FixturesMode,
  generated: Container[],
  loaded: Container[] | undefined,
): Container[] {
  if (mode === 'replace') return loaded ?? [];
  const byKey = new Map(generated.map((c) => [c.key, c]));
  for (const container of loaded ?? []) byKey.set(container.key, container);
  return [...byKey.values()];
}

function checkContainers(
  file: string,
  field: 'source_key' | 'board_key',
  items: Keyed[] | undefined,
  containers: Container[],
  note: (p: string) => void,
) {
  const known = new Set(containers.map((c) => c.key));
  items?.forEach((item, i) => {
    const key = (item as unknown as Record<string, string>)[field];
    if (typeof key === 'string' && !known.has(key)) {
      note(
        `${file}: [${i}].${field} ${key} names no ${field === 'source_key' ? 'source' : 'board'}: add it to ${field === 'source_key' ? 'sources' : 'boards'}.json`,
      );
    }
  });
}

/** The generated list with the loaded objects over it: same key replaces, new keys come after. */
function combine(
  mode: FixturesMode,
  generated: List<Keyed>,
  loaded: Keyed[] | undefined,
): List<Keyed> {
  if (mode === 'replace') return loaded ?? [];
  if (loaded === undefined || loaded.length === 0) return generated;
  const overrides = new Map(loaded.map((item) => [item.key, item]));
  const generatedKeys = new Set<string>();
  for (let i = 0; i < generated.length; i++) generatedKeys.add((generated.at(i) as Keyed).key);
  const extra = loaded.filter((item) => !generatedKeys.has(item.key));
  return {
    length: generated.length + extra.length,
    at(index) {
      if (index < generated.length) {
        const item = generated.at(index);
        return item === undefined ? undefined : (overrides.get(item.key) ?? item);
      }
      return extra[index - generated.length];
    },
  };
}
