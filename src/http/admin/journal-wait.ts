import {
  type JournalEntry,
  type JournalFilter,
  passes,
  type Recorded,
  type Watcher,
} from './journal-entry.ts';

/** What waiting needs of a journal (`Journal`). */
type Watched = {
  list: (filter: JournalFilter) => JournalEntry[];
  readonly nextId: number;
  watch: (watcher: Watcher) => () => void;
  show: (entry: Recorded) => JournalEntry;
};

/**
 * Resolves with the first request passing the filter that arrives from now on, once it ends
 * (answered or aborted); with `includePast`, the oldest one kept that has ended, or one already
 * in flight, does too. Rejects after `timeoutMs`.
 */
export function waitForEntry(
  journal: Watched,
  filter: JournalFilter,
  timeoutMs: number,
  includePast: boolean,
): Promise<JournalEntry> {
  if (includePast) {
    const [already] = journal.list(filter).filter((e) => e.state !== 'pending');
    if (already !== undefined) return Promise.resolve(already);
  }
  const from = includePast ? 0 : journal.nextId;
  return new Promise((resolve, reject) => {
    const stop = journal.watch((entry: Recorded | null) => {
      if (entry === null || entry.id < from || !passes(entry, filter)) return;
      clearTimeout(timer);
      stop();
      resolve(journal.show(entry));
    });
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`No request matching ${JSON.stringify(filter)} within ${timeoutMs} ms`));
    }, timeoutMs);
  });
}
