import { type FSWatcher, statSync, watch } from 'node:fs';
import type { AppState } from '../http/app-state.ts';
import { type Store, storeSteps } from '../store/store.ts';
import type { StoreData } from '../store/types.ts';
import { fixturesModeInWords } from './fixture-options.ts';
import { type FixturesMode, type Loaded, loadFixturesDir } from './fixtures-dir.ts';

/** Editors write a file in several steps: a change counts once the folder is quiet this long. */
const SETTLE_MS = 100;
/** How often a folder that is gone is looked for, at most. */
const LOOK_MAX_MS = 2_000;

export type FixturesWatch = { close(): void };

type WatchOptions = { maxDepth: number; say?: (line: string) => void };

/**
 * Reloads the fixtures when a file in the folder changes, one load at a time: a change during a
 * load supersedes it (the load stops, its data is dropped) and a fresh load follows, so the last
 * state on disk is what is served. Bad data is reported and not served. A folder that disappears
 * is said so on stderr and looked for until it is back, then watched and loaded again.
 */
export function watchFixtures(
  dir: string,
  mode: FixturesMode,
  generated: StoreData,
  state: AppState,
  options: WatchOptions,
): FixturesWatch {
  const watch = new FolderWatch(
    dir,
    (signal) => load(dir, mode, generated, options, signal),
    state,
  );
  const sizes = { profiles: generated.profiles.length, jobs: generated.jobs.length };
  watch.inWords = (served) => fixturesModeInWords(mode, served, sizes);
  watch.say = options.say ?? ((line: string) => process.stderr.write(`hrmock: ${line}\n`));
  watch.start();
  return watch;
}

type Load = (signal: AbortSignal) => Promise<{ loaded: Loaded; store: Store | undefined }>;

/** Loads the folder's fixtures and builds their store, a step at a time; never throws. */
async function load(
  dir: string,
  mode: FixturesMode,
  generated: StoreData,
  options: WatchOptions,
  signal: AbortSignal,
) {
  let loaded: Loaded;
  try {
    loaded = await loadFixturesDir(dir, mode, generated, { maxDepth: options.maxDepth, signal });
  } catch (error) {
    loaded = { ok: false, problems: [`could not load: ${(error as Error).message}`] };
  }
  const store = loaded.ok ? await buildStore(loaded.data, signal) : undefined;
  return { loaded, store };
}

class FolderWatch implements FixturesWatch {
  say: (line: string) => void = () => {};
  /** What the mode made of the folder, in words. */
  inWords: (served: { profiles: number; jobs: number }) => string = () => '';
  readonly #dir: string;
  readonly #load: Load;
  readonly #state: AppState;
  #watcher: FSWatcher | undefined;
  #settle: NodeJS.Timeout | undefined;
  #look: NodeJS.Timeout | undefined;
  #loading: AbortController | undefined;
  #again = false;
  #closed = false;

  constructor(dir: string, load: Load, state: AppState) {
    this.#dir = dir;
    this.#load = load;
    this.#state = state;
  }

  start(): void {
    if (!this.#startWatching()) this.#lost();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#settle);
    clearTimeout(this.#look);
    this.#watcher?.close();
    this.#loading?.abort();
  }

  /** One load at a time; a change during one aborts it and loads again once it has stopped. */
  async #reload(): Promise<void> {
    if (this.#loading !== undefined) {
      this.#again = true;
      this.#loading.abort();
      return;
    }
    do {
      this.#again = false;
      const controller = new AbortController();
      this.#loading = controller;
      const { loaded, store } = await this.#load(controller.signal);
      if (this.#closed) break;
      this.#report(loaded, store, controller.signal.aborted);
    } while (this.#again);
    this.#loading = undefined;
  }

  #report(loaded: Loaded, store: Store | undefined, superseded: boolean): void {
    const dir = this.#dir;
    if (superseded) {
      this.say(`a newer change to ${dir} superseded the reload in progress: loading again`);
    } else if (!loaded.ok) {
      this.say(
        `not reloading ${dir}, still serving the previous data:\n  ${loaded.problems.join('\n  ')}`,
      );
    } else if (store !== undefined) {
      this.#state.replaceStore(store);
      const { profiles, jobs } = loaded.counts as { profiles: number; jobs: number };
      this.say(
        `reloaded ${dir} (${this.inWords({ profiles, jobs })}): ${profiles} profiles, ${jobs} jobs`,
      );
    }
  }

  // A folder deleted and made again is another folder to the OS: each settled change watches
  // the folder found at `dir` afresh, so a new one is never missed.
  #settled(): void {
    if (this.#closed) return;
    if (!this.#startWatching()) {
      this.#lost();
      return;
    }
    void this.#reload();
  }

  #changed(): void {
    clearTimeout(this.#settle);
    this.#settle = setTimeout(() => this.#settled(), SETTLE_MS);
    this.#settle.unref();
  }

  #startWatching(): boolean {
    this.#watcher?.close();
    this.#watcher = undefined;
    let watcher: FSWatcher;
    try {
      if (!statSync(this.#dir).isDirectory()) return false;
      watcher = watch(this.#dir, () => this.#changed());
    } catch {
      return false;
    }
    watcher.on('error', () => this.#changed());
    watcher.unref();
    this.#watcher = watcher;
    return true;
  }

  /** Says the folder is gone, then looks for it, less and less often, until it is back. */
  #lost(): void {
    this.say(
      `${this.#dir} is gone: still serving the data loaded before; watching for it to come back`,
    );
    let wait = SETTLE_MS;
    const lookAgain = () => {
      if (this.#closed) return;
      if (this.#startWatching()) {
        this.say(`${this.#dir} is back: watching it again`);
        void this.#reload();
        return;
      }
      wait = Math.min(wait * 2, LOOK_MAX_MS);
      this.#look = setTimeout(lookAgain, wait);
      this.#look.unref();
    };
    this.#look = setTimeout(lookAgain, wait);
    this.#look.unref();
  }
}

/** The store of `data`, built a step at a time between answers; undefined once `signal` aborts. */
async function buildStore(data: StoreData, signal: AbortSignal): Promise<Store | undefined> {
  const steps = storeSteps(data);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) return undefined;
  }
}
