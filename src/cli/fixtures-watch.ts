import { type FSWatcher, statSync, watch } from 'node:fs';
import type { HrmockApp } from '../http/app.ts';
import { type Store, storeSteps } from '../store/store.ts';
import type { StoreData } from '../store/types.ts';
import { type FixturesMode, type Loaded, loadFixturesDir } from './fixtures-dir.ts';

/** Editors write a file in several steps: a change counts once the folder is quiet this long. */
const SETTLE_MS = 200;
/** How often a folder that is gone is looked for, at most. */
const LOOK_MAX_MS = 2_000;

export type FixturesWatch = { close(): void };

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
  app: HrmockApp,
  options: { maxDepth: number; say?: (line: string) => void },
): FixturesWatch {
  const say = options.say ?? ((line: string) => process.stderr.write(`hrmock: ${line}\n`));
  let watcher: FSWatcher | undefined;
  let settle: NodeJS.Timeout | undefined;
  let look: NodeJS.Timeout | undefined;
  let loading: AbortController | undefined;
  let again = false;
  let closed = false;

  const reload = async () => {
    if (loading !== undefined) {
      again = true;
      loading.abort();
      return;
    }
    do {
      again = false;
      const controller = new AbortController();
      loading = controller;
      let loaded: Loaded;
      try {
        loaded = await loadFixturesDir(dir, mode, generated, {
          maxDepth: options.maxDepth,
          signal: controller.signal,
        });
      } catch (error) {
        loaded = { ok: false, problems: [`could not load: ${(error as Error).message}`] };
      }
      const store = loaded.ok ? await buildStore(loaded.data, controller.signal) : undefined;
      if (closed) break;
      if (controller.signal.aborted) {
        say(`a newer change to ${dir} superseded the reload in progress: loading again`);
      } else if (!loaded.ok) {
        say(
          `not reloading ${dir}, still serving the previous data:\n  ${loaded.problems.join('\n  ')}`,
        );
      } else if (store !== undefined) {
        app.replaceStore(store);
        say(`reloaded ${dir}: ${loaded.counts.profiles} profiles, ${loaded.counts.jobs} jobs`);
      }
    } while (again);
    loading = undefined;
  };

  // A folder deleted and made again is another folder to the OS: each settled change watches
  // the folder found at `dir` afresh, so a new one is never missed.
  const settled = () => {
    if (closed) return;
    if (!startWatching()) {
      lost();
      return;
    }
    void reload();
  };
  const changed = () => {
    clearTimeout(settle);
    settle = setTimeout(settled, SETTLE_MS);
    settle.unref();
  };
  const startWatching = (): boolean => {
    watcher?.close();
    watcher = undefined;
    try {
      if (!statSync(dir).isDirectory()) return false;
      watcher = watch(dir, changed);
    } catch {
      return false;
    }
    watcher.on('error', changed);
    watcher.unref();
    return true;
  };
  const lost = () => {
    say(`${dir} is gone: still serving the data loaded before; watching for it to come back`);
    let wait = SETTLE_MS;
    const lookAgain = () => {
      if (closed) return;
      if (startWatching()) {
        say(`${dir} is back: watching it again`);
        void reload();
        return;
      }
      wait = Math.min(wait * 2, LOOK_MAX_MS);
      look = setTimeout(lookAgain, wait);
      look.unref();
    };
    look = setTimeout(lookAgain, wait);
    look.unref();
  };

  if (!startWatching()) lost();
  return {
    close() {
      closed = true;
      clearTimeout(settle);
      clearTimeout(look);
      watcher?.close();
      loading?.abort();
    },
  };
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
