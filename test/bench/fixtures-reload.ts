// npx tsx test/bench/fixtures-reload.ts: `hrmock serve --fixtures DIR` (1,000 generated profiles,
// merge mode), from the write of a new profiles.json of about 1 MB and 10 MB to the first answer
// that finds its profiles, against `JSON.parse` of the same text in this process, in the same
// run. Full profiles are the generated ones (~5 KB each); short ones have no experiences,
// educations or skills (~1 KB each: five times the items for the bytes). Median of RUNS writes
// per row (default 5), the first write of the run left out (it compiles what later ones reuse).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import type { Profile } from '../../src/store/types.ts';
import { startHrmock } from './processes.ts';

const runs = Number(process.env.RUNS ?? 5);
const rows = [
  { mb: 1, shape: 'full' },
  { mb: 10, shape: 'full' },
  { mb: 10, shape: 'short' },
] as const;
const template = buildFixtures({ profiles: 20, jobs: 0 }).profiles;

/** Profiles made from the generated ones, with fresh keys and `word` in their text, ~`mb` MB. */
function profilesJson(mb: number, shape: 'full' | 'short', word: string, first: number): string {
  const parts: string[] = [];
  let bytes = 2;
  for (let i = 0; bytes < mb * 1024 * 1024; i++) {
    const base = template[i % template.length] as Profile;
    const key = (first + i).toString(16).padStart(40, '0');
    const short = shape === 'short' && { experiences: [], educations: [], skills: [] };
    const profile = { ...base, ...short, key, reference: `bench-${key}` };
    const text = JSON.stringify({ ...profile, text: `${base.text.slice(0, 200)} ${word}` });
    parts.push(text);
    bytes += text.length + 1;
  }
  return `[${parts.join(',')}]`;
}

/** How many profiles the server at `url` finds with `word`. */
async function found(url: string, sourceKeys: string, word: string): Promise<number> {
  const words = encodeURIComponent(JSON.stringify([word]));
  const response = await fetch(
    `${url}/profiles/searching?source_keys=${sourceKeys}&text_keywords=${words}&limit=1`,
  );
  const body = (await response.json()) as { data: { profiles: unknown[] } };
  return body.data.profiles.length;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

let round = 0;
/** Milliseconds from writing a new profiles.json to the first answer that finds it. */
async function reload(
  url: string,
  dir: string,
  text: (word: string, first: number) => string,
): Promise<{ served: number; parsed: number; count: number }> {
  // Letters only, so one word to the text index; a new one each write.
  const word = `wombat${String.fromCharCode(97 + (round % 26), 97 + Math.floor(round / 26))}`;
  round++;
  const json = text(word, round * 1_000_000);
  const t0 = performance.now();
  const count = (JSON.parse(json) as unknown[]).length;
  const parsed = performance.now() - t0;
  const written = performance.now();
  await writeFile(join(dir, 'profiles.json'), json);
  while ((await found(url, sourceKeys, word)) === 0) {
    if (performance.now() - written > 60_000) throw new Error('no reload within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const served = performance.now() - written;
  // The server at rest before the next write.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { served, parsed, count };
}

const dir = await mkdtemp(join(tmpdir(), 'hrmock-reload-'));
await writeFile(join(dir, 'profiles.json'), '[]');
const server = await startHrmock(1000, { extra: ['--fixtures', dir] });
const sources = [...new Set(template.map((p) => p.source_key))];
const sourceKeys = encodeURIComponent(JSON.stringify(sources));
try {
  await reload(server.url, dir, (word, first) => profilesJson(1, 'full', word, first));
  console.log('| file | profiles | write→served, median (min to max) | JSON.parse | ratio |');
  console.log('|---|---:|---:|---:|---:|');
  for (const { mb, shape } of rows) {
    const served: number[] = [];
    const parsed: number[] = [];
    let count = 0;
    for (let k = 0; k < runs; k++) {
      const run = await reload(server.url, dir, (w, first) => profilesJson(mb, shape, w, first));
      served.push(run.served);
      parsed.push(run.parsed);
      count = run.count;
    }
    const s = median(served);
    const p = median(parsed);
    console.log(
      `| ${mb} MB, ${shape} | ${count} | ${s.toFixed(0)} ms (${Math.min(...served).toFixed(0)} to ${Math.max(...served).toFixed(0)}) | ${p.toFixed(1)} ms | ${(s / p).toFixed(1)}× |`,
    );
  }
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
