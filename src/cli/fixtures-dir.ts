import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedContract } from '../../contract/suite/openapi.ts';
import { type ContractValidator, validatorOf } from '../../contract/suite/validator.ts';
import { DEFAULT_LIMITS } from '../http/limits.ts';
import type { Container, StoreData } from '../store/types.ts';
import { type FixturesReader, inlineReader, WorkerReader } from './fixtures-reader.ts';

export type FixturesMode = 'merge' | 'replace';

export type Loaded =
  | { ok: true; data: StoreData; counts: Record<string, number> }
  | { ok: false; problems: string[]; superseded?: true };

export type LoadOptions = {
  /** Deepest nesting of one object, itself level 1 (the request-body limit; default 64). */
  maxDepth?: number;
  /** Aborted when a newer load supersedes this one: it stops and answers `superseded`. */
  signal?: AbortSignal;
  /**
   * Read and parse on this thread, which then stops until all is read: faster when nothing is
   * being served (start-up). By default files are read on a worker thread.
   */
  inline?: boolean;
};

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
type Name = (typeof FILES)[number][0];
/** A file's items, its path as problems name it, and where item i begins (`line:column`). */
type Read = { items: Keyed[]; path: string; where: (index: number) => string };

/**
 * Reads `sources.json`, `boards.json`, `profiles.json`, `jobs.json` (any of them, as
 * `hrmock fixtures --out DIR` writes them) and checks every object against the contract. With
 * `merge` they join the generated data (an object with a generated key replaces it); with
 * `replace` they are all the data. Problems name the file (`DIR/NAME.json`), the line and
 * column (where the item begins, for an item's problem) and the item's index and path, never its
 * content. Files are read and parsed on a worker and checked here a batch at a time, so a server
 * answers meanwhile (unless `inline`).
 */
export async function loadFixturesDir(
  dir: string,
  mode: FixturesMode,
  generated: StoreData,
  options: LoadOptions = {},
): Promise<Loaded> {
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
  const { signal } = options;
  if (signal?.aborted) return { ok: false, problems: [], superseded: true };
  const maxDepth = options.maxDepth ?? DEFAULT_LIMITS.jsonDepth;
  const reader = options.inline ? inlineReader(maxDepth) : new WorkerReader(maxDepth);
  // Compiled once, the first time, while the worker reads.
  validator ??= validatorOf(sharedContract());
  for (const [, schema] of FILES) validator.validateSchema(schema, null);
  const stop = () => void reader.close();
  signal?.addEventListener('abort', stop);
  let loaded: Partial<Record<Name, Read>>;
  try {
    loaded = await readFiles(reader, dir, present, note);
  } catch (error) {
    if (signal?.aborted) return { ok: false, problems: [], superseded: true };
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
    await reader.close();
  }
  if (signal?.aborted) return { ok: false, problems: [], superseded: true };
  if (Object.keys(loaded).length === 0 && problems.length === 0) {
    note(`${dir} holds none of sources.json, boards.json, profiles.json, jobs.json`);
  }
  const sources = combineContainers(
    mode,
    generated.sources,
    loaded.sources?.items as Container[] | undefined,
  );
  const boards = combineContainers(
    mode,
    generated.boards,
    loaded.boards?.items as Container[] | undefined,
  );
  checkContainers('source_key', loaded.profiles, sources, note);
  checkContainers('board_key', loaded.jobs, boards, note);
  if (problems.length > 0) return { ok: false, problems };
  const profiles = combine(mode, generated.profiles as List<Keyed>, loaded.profiles?.items);
  const jobs = combine(mode, generated.jobs as List<Keyed>, loaded.jobs?.items);
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

/** Each fixture file present, its objects checked against the contract a batch at a time. */
async function readFiles(
  reader: FixturesReader,
  dir: string,
  present: string[],
  note: (problem: string) => void,
): Promise<Partial<Record<Name, Read>>> {
  const loaded: Partial<Record<Name, Read>> = {};
  for (const [name, schema] of FILES) {
    const file = `${name}.json`;
    if (!present.includes(file)) continue;
    const path = join(dir, file);
    const opened = await reader.open(path, path);
    if ('problems' in opened) {
      for (const problem of opened.problems) note(problem);
      continue;
    }
    const items: Keyed[] = [];
    const seen = new Set<string>();
    // The worker copies out the next batch while this one is checked.
    for (let ahead = reader.next(); ; ) {
      const batch = await ahead;
      if (batch.length === 0) break;
      ahead = reader.next();
      for (const item of batch) {
        const i = items.length;
        const verdict = (validator as ContractValidator).validateSchema(schema, item);
        if (!verdict.ok)
          for (const error of verdict.errors.slice(0, 3))
            note(
              `${path}:${opened.where(i)}: [${i}]${error.startsWith('(root)') ? error.slice(6) : error}`,
            );
        const key = (item as Keyed | null)?.key;
        if (typeof key === 'string' && seen.has(key))
          note(`${path}:${opened.where(i)}: [${i}].key ${key} appears twice`);
        if (typeof key === 'string') seen.add(key);
        items.push(item as Keyed);
      }
    }
    loaded[name] = { items, path, where: opened.where };
  }
  return loaded;
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
  field: 'source_key' | 'board_key',
  read: Read | undefined,
  containers: Container[],
  note: (p: string) => void,
) {
  const known = new Set(containers.map((c) => c.key));
  read?.items.forEach((item, i) => {
    const key = (item as unknown as Record<string, string>)[field];
    if (typeof key === 'string' && !known.has(key)) {
      note(
        `${read.path}:${read.where(i)}: [${i}].${field} ${key} names no ${field === 'source_key' ? 'source' : 'board'}: add it to ${field === 'source_key' ? 'sources' : 'boards'}.json`,
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
  const none = loaded === undefined || loaded.length === 0;
  if (none && generated.length > KEEP_GENERATED) return generated;
  const { keys, items } = generatedOf(generated);
  const base = items ?? generated;
  if (none) return base;
  const overrides = new Map(loaded.map((item) => [item.key, item]));
  const extra = loaded.filter((item) => !keys.has(item.key));
  return {
    length: base.length + extra.length,
    at(index) {
      if (index < base.length) {
        const item = base.at(index);
        return item === undefined ? undefined : (overrides.get(item.key) ?? item);
      }
      return extra[index - base.length];
    },
  };
}

/**
 * Generated lists up to this long are kept once made (~4 KB an item): each reload then reads
 * them again at no cost. A longer one is made anew each time, as it is made on demand to save
 * memory.
 */
const KEEP_GENERATED = 5_000;
const generatedCache = new WeakMap<object, { keys: Set<string>; items?: Keyed[] }>();

/** The keys of a generated list, and its items if short, made once for all loads. */
function generatedOf(generated: List<Keyed>): { keys: Set<string>; items?: Keyed[] } {
  let known = generatedCache.get(generated);
  if (known === undefined) {
    const keys = new Set<string>();
    const items: Keyed[] = [];
    const keep = generated.length <= KEEP_GENERATED;
    for (let i = 0; i < generated.length; i++) {
      const item = generated.at(i) as Keyed;
      keys.add(item.key);
      if (keep) items.push(item);
    }
    known = keep ? { keys, items } : { keys };
    generatedCache.set(generated, known);
  }
  return known;
}
