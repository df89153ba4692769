// The control page's script (served at /_mock/ui/app.js; built by `npm run types` into
// src/generated/ui-page.ts). It runs in the page only: it follows /_mock/events, shows what the
// server tells, and calls the admin API of the same origin. Text from requests is only ever set
// as text, never as markup.

import {
  curlOf,
  type Entry,
  el,
  type Hello,
  mainParams,
  percentile,
  type Scenario,
  type Violation,
} from './page-parts.ts';

/** The most requests the page keeps: older ones leave the list and the summary. */
const MAX_ROWS = 1000;
const KEY_STORE = 'hrmock-api-key';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const requests: Entry[] = [];
let hello: Hello | undefined;

/** Calls the admin API of this origin, with the key when one was given. */
async function admin(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  const key = sessionStorage.getItem(KEY_STORE);
  if (key !== null) headers['X-API-KEY'] = key;
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const answer = await fetch(`/_mock/${path}`, init);
  if (answer.status === 401) askForKey();
  return answer;
}

function askForKey() {
  $('key-form').hidden = false;
  $('connection').textContent = 'The server wants its API key.';
  $<HTMLInputElement>('key').focus();
}

/** Follows /_mock/events, reconnecting after a drop (each time from the server's state). */
async function follow(): Promise<void> {
  let wait = 500;
  for (;;) {
    try {
      const answer = await admin('GET', 'events');
      if (answer.status === 401) return;
      if (!answer.ok || answer.body === null) throw new Error(`status ${answer.status}`);
      $('connection').textContent = 'Live';
      wait = 500;
      await readEvents(answer.body);
    } catch {
      // Dropped or refused: said on the page, tried again.
    }
    $('connection').textContent = 'Reconnecting…';
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, 5000);
  }
}

async function readEvents(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data !== '') handle(event, JSON.parse(data));
    }
  }
}

function handle(event: string, data: unknown) {
  if (event === 'hello') {
    hello = data as Hello;
    requests.length = 0;
    requests.push(...hello.requests);
    startPage(hello);
  } else if (event === 'request') {
    requests.push(data as Entry);
    if (requests.length > MAX_ROWS) requests.splice(0, requests.length - MAX_ROWS);
  } else if (event === 'reset') {
    requests.length = 0;
  } else if (event === 'scenarios') {
    showScenarios(data as Scenario[]);
    return;
  } else if (event === 'violation') {
    addViolation(data as Violation);
    return;
  } else return;
  soon();
}

let drawing: ReturnType<typeof setTimeout> | undefined;
/** Shows the requests within 100 ms: a burst of them is drawn once. */
function soon() {
  if (drawing !== undefined) return;
  drawing = setTimeout(() => {
    drawing = undefined;
    showRequests();
  }, 100);
}

function startPage(h: Hello) {
  $('kind').textContent = h.kind === 'proxy' ? 'proxy' : 'mock';
  $('scenarios-panel').hidden = h.kind === 'proxy';
  $('violations-panel').hidden = h.kind !== 'proxy';
  $('reset').hidden = h.kind === 'proxy';
  const path = $<HTMLSelectElement>('sc-path');
  if (path.options.length === 0) {
    for (const p of h.paths) path.add(new Option(p, p));
    showExamples();
  }
  if (h.scenarios !== undefined) showScenarios(h.scenarios);
  $('violations').replaceChildren();
  for (const v of h.violations ?? []) addViolation(v);
}

function showExamples() {
  const path = $<HTMLSelectElement>('sc-path').value;
  const example = $<HTMLSelectElement>('sc-example');
  const names = hello?.examples[path.includes('grading') ? 'grading' : 'list'] ?? [];
  example.replaceChildren(new Option('none', ''), ...names.map((n) => new Option(n, n)));
}

function passesFilters(e: Entry): boolean {
  const path = $<HTMLInputElement>('filter-path').value.trim();
  const status = $<HTMLInputElement>('filter-status').value.trim().toLowerCase();
  if (path !== '' && !e.path.includes(path)) return false;
  if (status === '') return true;
  const shown = String(e.status ?? 'none');
  return /^\dxx$/.test(status) ? shown[0] === status[0] : shown === status;
}

function showRequests() {
  const open = new Set(
    [...document.querySelectorAll<HTMLElement>('.row[aria-expanded="true"]')].map(
      (b) => b.dataset.id,
    ),
  );
  const rows = requests
    .filter(passesFilters)
    .slice(-300)
    .reverse()
    .map((e) => row(e, open));
  $('rows').replaceChildren(...rows);
  $('empty').hidden = requests.length > 0;
  showSummary();
}

function row(e: Entry, open: Set<string | undefined>): HTMLElement {
  const item = document.createElement('li');
  const button = el('button', 'row mono');
  button.setAttribute('type', 'button');
  button.dataset.id = String(e.id);
  const status = e.status === null ? (e.state === 'pending' ? '…' : 'none') : String(e.status);
  const path = el('span', 'path');
  path.append(el('span', '', e.path), ' ', el('span', 'params', mainParams(e.params)));
  button.append(
    el('span', 'time', e.time.slice(11, 19)),
    el('span', 'method', e.method),
    path,
    el('span', `status s${String(e.status ?? 0)[0]}`, status),
    el('span', 'ms', e.ms === null ? '' : `${e.ms} ms`),
    el('span', 'scenario', e.scenario ?? ''),
  );
  button.title = e.scenario === null ? 'No scenario matched' : `Scenario ${e.scenario} matched`;
  const detail = details(e);
  const expanded = open.has(String(e.id));
  button.setAttribute('aria-expanded', String(expanded));
  detail.hidden = !expanded;
  button.addEventListener('click', () => {
    const now = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(now));
    detail.hidden = !now;
  });
  item.append(button, detail);
  return item;
}

function details(e: Entry): HTMLElement {
  const box = el('div', 'detail');
  const part = (title: string, text: string) =>
    box.append(el('h3', '', title), el('pre', '', text));
  part('Parameters', JSON.stringify(e.params, null, 2));
  if (e.body !== undefined) part('Body as sent', e.body);
  part('Headers', JSON.stringify(e.headers, null, 2));
  part(
    'Answer (first KB)',
    e.answer ?? 'Not shown: the request ended before this page was following.',
  );
  const copy = el('button', '', 'Copy as curl');
  copy.setAttribute('type', 'button');
  copy.addEventListener('click', async () => {
    const line = curlOf(e, hello?.api ?? location.origin);
    try {
      await navigator.clipboard.writeText(line);
      copy.textContent = 'Copied';
    } catch {
      part('curl', line);
    }
  });
  box.append(copy);
  return box;
}

function showSummary() {
  const operations = new Set(requests.map((e) => e.operation).filter((o) => o !== null));
  const ms = requests
    .map((e) => e.ms)
    .filter((m): m is number => m !== null)
    .sort((a, b) => a - b);
  const count = (c: string) => requests.filter((e) => String(e.status)[0] === c).length;
  const p = (n: number) => {
    const v = percentile(ms, n);
    return v === undefined ? '–' : `${v} ms`;
  };
  $('sum-ops').textContent = String(operations.size);
  $('sum-ops').title = [...operations].join(', ');
  $('sum-total').textContent = String(requests.length);
  $('sum-4xx').textContent = String(count('4'));
  $('sum-5xx').textContent = String(count('5'));
  $('sum-p50').textContent = p(50);
  $('sum-p95').textContent = p(95);
}

function showScenarios(scenarios: Scenario[]) {
  const items = scenarios.map((s) => {
    const item = document.createElement('li');
    const line = el('div', 'line');
    const what = el('span', 'mono', `${s.id} ${s.method ?? 'GET/POST'} ${s.path}`);
    const remove = el('button', '', 'Remove');
    remove.setAttribute('type', 'button');
    remove.setAttribute('aria-label', `Remove scenario ${s.id}`);
    remove.addEventListener('click', () => void admin('DELETE', `scenarios/${s.id}`));
    line.append(what, el('span', '', `matched ${s.matched}`), remove);
    item.append(line, el('code', '', JSON.stringify(s.respond)));
    return item;
  });
  $('scenarios').replaceChildren(...items);
}

function addViolation(v: Violation) {
  const item = document.createElement('li');
  const where = `${v.method} ${v.path} → ${v.status} (the ${v.side}'s)`;
  item.append(el('span', 'rule', v.rule), el('span', 'mono', where), el('span', '', v.message));
  item.append(el('pre', '', v.request), el('pre', '', v.reproduce));
  $('violations').prepend(item);
  $('no-violations').hidden = true;
}

/** The scenario the form describes: every field filled goes in; the server says what is wrong. */
function formScenario(): Record<string, unknown> {
  const field = (id: string) => $<HTMLInputElement>(id).value.trim();
  const respond: Record<string, unknown> = {};
  if (field('sc-status') !== '') respond.status = Number(field('sc-status'));
  if (field('sc-example') !== '') respond.example = field('sc-example');
  if (field('sc-delay') !== '') respond.delay = Number(field('sc-delay'));
  if (field('sc-fault') !== '') respond.fault = field('sc-fault');
  if (field('sc-body') !== '') {
    try {
      respond.body = JSON.parse(field('sc-body'));
    } catch {
      throw new Error('Body is not JSON: write a JSON value, e.g. {"code": 200, "message": "OK"}.');
    }
  }
  const scenario: Record<string, unknown> = { path: field('sc-path'), respond };
  if (field('sc-method') !== '') scenario.method = field('sc-method');
  if (field('sc-times') !== '') scenario.times = Number(field('sc-times'));
  return scenario;
}

async function addScenario(event: SubmitEvent) {
  event.preventDefault();
  const error = $('sc-error');
  error.textContent = '';
  try {
    const answer = await admin('POST', 'scenarios', formScenario());
    if (!answer.ok) {
      const said = (await answer.json().catch(() => ({}))) as { message?: string };
      error.textContent = said.message ?? `The server answered ${answer.status}.`;
    }
  } catch (e) {
    error.textContent = (e as Error).message;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  $('scenario-form').addEventListener('submit', (e) => void addScenario(e as SubmitEvent));
  $('sc-path').addEventListener('change', showExamples);
  $('scenario-form').addEventListener('input', () => {
    $('sc-error').textContent = '';
  });
  $('reset').addEventListener('click', () => void admin('POST', 'reset'));
  $('filter-path').addEventListener('input', showRequests);
  $('filter-status').addEventListener('input', showRequests);
  $('key-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sessionStorage.setItem(KEY_STORE, $<HTMLInputElement>('key').value);
    $('key-form').hidden = true;
    void follow();
  });
  void follow();
});
