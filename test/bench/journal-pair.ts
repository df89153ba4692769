// Two mocks in one process, alike but for the journal (on at its default size, and off), for
// test/bench/journal.ts: one heap, one JIT, one place on the machine, so that only the journal
// differs between them. Prints `pair <on URL> <off URL>` and serves until killed.
import { startMock } from '../../src/api/start-mock.ts';

const options = { profiles: 1000, answerCacheBytes: 0 };
// JOURNAL_PAIR_CONTROL=1: both off (an A/A run).
const control = process.env.JOURNAL_PAIR_CONTROL === '1';
const on = await startMock({ ...options, journalSize: control ? 0 : 1000 });
const off = await startMock({ ...options, journalSize: 0 });
process.stdout.write(`pair ${on.url} ${off.url}\n`);
