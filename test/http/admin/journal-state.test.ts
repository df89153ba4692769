import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../../src/api/start-mock.ts';
import { createMockFetch } from '../../../src/browser/mock-fetch.ts';
import { Journal } from '../../../src/http/admin/journal.ts';
import { waitForEntry } from '../../../src/http/admin/journal-wait.ts';
import { query } from '../../support/mock-app.ts';

// Each entry's `state` (pending, answered, aborted), and waiting for requests still to come.
const headers = { host: '127.0.0.1:4010' };

/** Polls `look` each turn of the event loop until it gives a value: no clock involved. */
async function until<T>(look: () => T | undefined): Promise<T> {
  for (;;) {
    const found = look();
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the state of a journal entry', () => {
  it('is pending while the request is in flight, with no status nor ms', () => {
    const journal = new Journal(10);
    journal.record('GET', '/jobs/searching', undefined, headers);
    expect(journal.list()[0]).toMatchObject({ state: 'pending', status: null, ms: null });
  });

  it('is answered once its status is written', () => {
    const journal = new Journal(10);
    const id = journal.record('GET', '/jobs/searching', undefined, headers);
    journal.finish(id, 404, 3);
    expect(journal.list()[0]).toMatchObject({ state: 'answered', status: 404, ms: 3 });
  });

  it('is answered for a request recorded with its status', () => {
    const journal = new Journal(10);
    journal.record('GET', '/jobs/searching', undefined, headers, 429, 0);
    expect(journal.list()[0]).toMatchObject({ state: 'answered', status: 429 });
  });

  it('is aborted for a request that ended with no answer', () => {
    const journal = new Journal(10);
    const id = journal.record('GET', '/jobs/searching', undefined, headers);
    journal.finish(id, null, 7);
    expect(journal.list()[0]).toMatchObject({ state: 'aborted', status: null, ms: 7 });
  });
});

describe('waiting on the journal', () => {
  it('passes over a request answered before the wait began', async () => {
    const journal = new Journal(10);
    const early = journal.record('GET', '/jobs/searching', undefined, headers, 200, 1);
    const waited = waitForEntry(journal, { path: '/jobs/searching' }, 1000, false);
    const late = journal.record('GET', '/jobs/searching', undefined, headers, 201, 1);
    expect(late).not.toBe(early);
    expect((await waited).id).toBe(late);
  });

  it('passes over a request that arrived before the wait and ends after it', async () => {
    const journal = new Journal(10);
    const early = journal.record('GET', '/jobs/searching', undefined, headers);
    const waited = waitForEntry(journal, { path: '/jobs/searching' }, 1000, false);
    journal.finish(early, 200, 1);
    const late = journal.record('GET', '/jobs/searching', undefined, headers, 200, 1);
    expect((await waited).id).toBe(late);
  });

  it('takes a request already answered with includePast', async () => {
    const journal = new Journal(10);
    const early = journal.record('GET', '/jobs/searching', undefined, headers, 200, 1);
    const entry = await waitForEntry(journal, { path: '/jobs/searching' }, 1000, true);
    expect(entry).toMatchObject({ id: early, state: 'answered' });
  });

  it('takes a request in flight when it ends, with includePast', async () => {
    const journal = new Journal(10);
    const early = journal.record('GET', '/jobs/searching', undefined, headers);
    const waited = waitForEntry(journal, { path: '/jobs/searching' }, 1000, true);
    journal.finish(early, null, 2);
    expect(await waited).toMatchObject({ id: early, state: 'aborted' });
  });

  it('tells a waiter of a request to come even when it keeps none', async () => {
    const journal = new Journal(0);
    const waited = waitForEntry(journal, { path: '/jobs/scoring' }, 1000, false);
    const id = journal.record('POST', '/jobs/scoring', undefined, headers);
    journal.finish(id, 200, 4);
    expect(await waited).toMatchObject({ id, state: 'answered', status: 200 });
  });
});

describe('request states on a running mock', () => {
  let mock: RunningMock;
  let searching: string;
  beforeAll(async () => {
    mock = await startMock({ host: '127.0.0.1', port: 0, profiles: 60, jobs: 20 });
    searching = `${mock.url}/profiles/searching?${query({ source_keys: mock.target.profiles.source_keys, limit: 2 })}`;
  });
  afterAll(() => mock.close());
  afterEach(() => mock.reset());

  it('journals a request held by a hang as pending, then aborted when its client leaves', async () => {
    mock.use({ path: '/profiles/searching', respond: { fault: 'hang' }, times: 1 });
    const leave = new AbortController();
    const sent = fetch(searching, { signal: leave.signal }).catch(() => 'gone');
    const pending = await until(() => mock.requests({ path: '/profiles/searching' })[0]);
    expect(pending).toMatchObject({ state: 'pending', status: null, ms: null });
    const ended = mock.waitForRequest({ path: '/profiles/searching' }, { includePast: true });
    leave.abort();
    expect(await sent).toBe('gone');
    expect(await ended).toMatchObject({ id: pending.id, state: 'aborted', status: null });
  });

  it('journals a request as aborted when its client leaves during a delay', async () => {
    mock.use({ path: '/profiles/searching', respond: { delay: 300 }, times: 1 });
    const leave = new AbortController();
    const sent = fetch(searching, { signal: leave.signal }).catch(() => 'gone');
    const pending = await until(() => mock.requests({ path: '/profiles/searching' })[0]);
    const ended = mock.waitForRequest({ path: '/profiles/searching' }, { includePast: true });
    leave.abort();
    expect(await sent).toBe('gone');
    expect(await ended).toMatchObject({ id: pending.id, state: 'aborted', status: null });
  });

  it('journals a reset fault as aborted', async () => {
    mock.use({ path: '/profiles/searching', respond: { fault: 'reset' }, times: 1 });
    await fetch(searching).catch(() => undefined);
    const entry = await mock.waitForRequest({ path: '/profiles/searching' }, { includePast: true });
    expect(entry).toMatchObject({ state: 'aborted', status: null });
  });

  it('journals an answered request as answered', async () => {
    await (await fetch(searching)).arrayBuffer();
    expect(mock.requests()[0]).toMatchObject({ state: 'answered', status: 200 });
  });

  it('waits for a request sent after the call, not one sent before', async () => {
    await (await fetch(`${searching}&page=1`)).arrayBuffer();
    const waited = mock.waitForRequest({ path: '/profiles/searching' });
    await (await fetch(`${searching}&page=2`)).arrayBuffer();
    expect((await waited).params.page).toBe(2);
  });

  it('looks back at the journal with includePast', async () => {
    await (await fetch(`${searching}&page=1`)).arrayBuffer();
    const entry = await mock.waitForRequest({ path: '/profiles/searching' }, { includePast: true });
    expect(entry.params.page).toBe(1);
  });

  it('shows the state over GET /_mock/requests', async () => {
    await (await fetch(searching)).arrayBuffer();
    const listed = await (await fetch(`${mock.url}/_mock/requests`)).json();
    expect(listed.data.map((e: { state: string }) => e.state)).toEqual(['answered']);
  });
});

describe('request states in the page', () => {
  const path = `/profiles/searching?${query({ source_keys: ['x'.repeat(40)] })}`;

  it('journals a request whose signal aborts during a delay as aborted', async () => {
    const mockFetch = createMockFetch({ profiles: 60, jobs: 20 });
    mockFetch.use({ path: '/profiles/searching', respond: { delay: 300 } });
    const leave = new AbortController();
    const sent = mockFetch(new Request(`http://page.test${path}`, { signal: leave.signal }));
    const pending = await until(() => mockFetch.requests()[0]);
    expect(pending.state).toBe('pending');
    const ended = mockFetch.waitForRequest({ path: '/profiles/searching' }, { includePast: true });
    leave.abort();
    await sent.catch(() => undefined);
    expect(await ended).toMatchObject({ id: pending.id, state: 'aborted' });
  });

  it('waits in createMockFetch() for a request to come, not one before', async () => {
    const mockFetch = createMockFetch({ profiles: 60, jobs: 20 });
    await mockFetch(new Request(`http://page.test${path}&page=1`));
    const waited = mockFetch.waitForRequest({ path: '/profiles/searching' });
    await mockFetch(new Request(`http://page.test${path}&page=2`));
    expect((await waited).params.page).toBe(2);
  });
});
