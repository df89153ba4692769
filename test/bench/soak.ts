// npm run soak: mixed traffic at 64 connections on loopback against `hrmock serve`, bounded in
// time (SOAK_SECONDS, default 60) and count; fails on any 5xx, socket error or timeout, or when
// resident memory grows by 20% or more over the run after the warm-up. Resident memory swings by
// a fifth as the heap grows and shrinks between collections, so it is sampled every second and
// the median of the run's last ten seconds is compared with that of its first ten: a leak grows
// the one past the other, a collection that happens to run just before a single reading does not.
import autocannon from 'autocannon';
import type { Target } from '../../src/hr/target.ts';
import { HEADERS, type LoadRequest } from './load.ts';
import { residentMb, startHrmock } from './processes.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const warmup = Number(process.env.SOAK_WARMUP_SECONDS ?? 30);
const SAMPLES = 10;
const connections = 64;
const MAX_REQUESTS = 10_000_000;

/** Grading, searching and scoring by GET and POST, valid and invalid, over many parameters. */
function mixedTraffic(t: Target): LoadRequest[] {
  const q = (params: Record<string, unknown>) =>
    new URLSearchParams(
      Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ).toString();
  const post = (path: string, body: unknown): LoadRequest => ({
    method: 'POST',
    path,
    body: JSON.stringify(body),
  });
  const requests: LoadRequest[] = [];
  const keywords = ['python', 'sql', 'english', 'nurse', 'sales', 'figma', 'budget', 'react'];
  for (let i = 0; i < 200; i++) {
    const keyword = keywords[i % keywords.length];
    const page = 1 + (i % 5);
    const profileGrading = {
      algorithm_key: `a${i % 3}`,
      board_key: t.profiles.board_key,
      job_key: t.profiles.job_key,
      profile_ids: t.profiles.profile_ids.slice(0, 1 + (i % 10)),
    };
    requests.push(
      {
        method: 'GET',
        path: `/profiles/grading?${q({ ...profileGrading, return_profile: i % 2 === 0 })}`,
      },
      {
        method: 'GET',
        path: `/jobs/grading?${q({ algorithm_key: 'a', source_key: t.jobs.source_key, profile_key: t.jobs.profile_key, job_ids: t.jobs.job_ids.slice(0, 1 + (i % 10)) })}`,
      },
      {
        method: 'GET',
        path: `/profiles/searching?${q({ source_keys: t.profiles.source_keys, text_keywords: [keyword], page, limit: 20 })}`,
      },
      post('/jobs/searching', {
        board_keys: t.jobs.board_keys,
        sort_by: 'updated_at',
        page,
        limit: 10,
      }),
      post('/profiles/scoring', {
        algorithm_key: 'a',
        board_key: t.profiles.board_key,
        job_key: t.profiles.job_key,
        source_keys: t.profiles.source_keys,
        sort_by: 'scoring',
        page,
        location_geopoint: { lat: 48.85, lng: 2.35 },
        location_distance: 200 + i,
      }),
      {
        method: 'GET',
        path: `/jobs/scoring?${q({ algorithm_key: 'a', source_key: t.jobs.source_key, profile_key: t.jobs.profile_key, board_keys: t.jobs.board_keys, score_threshold: (i % 10) / 10 })}`,
      },
      { method: 'GET', path: `/profiles/searching?${q({ source_keys: 'oops', limit: 500 + i })}` },
      post('/profiles/scoring', { board_key: 'x' }),
      { method: 'POST', path: '/jobs/searching', body: `{"board_keys": [${i}` },
      { method: 'GET', path: `/nowhere/${i}` },
    );
  }
  return requests;
}

// SOAK_SERVE_ARGS: flags for hrmock serve, e.g. '--journal-size 0' for a run without the journal.
const extra = (process.env.SOAK_SERVE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
const server = await startHrmock(1000, { extra });
const target = ((await (await fetch(`${server.url}/_mock/target`)).json()) as { data: Target })
  .data;
const requests = mixedTraffic(target);
const options = {
  url: server.url,
  connections,
  headers: HEADERS,
  requests,
  timeout: 10,
  maxOverallRequests: MAX_REQUESTS,
};

await autocannon({ ...options, duration: warmup });
const rss: number[] = [];
const sampler = setInterval(() => rss.push(residentMb(server.pid)), 1000);
const result = await autocannon({ ...options, duration: seconds });
clearInterval(sampler);
await server.stop();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
const before = median(rss.slice(0, SAMPLES));
const after = median(rss.slice(-SAMPLES));

const serverErrors = Object.entries(result.statusCodeStats ?? {})
  .filter(([code]) => Number(code) >= 500)
  .reduce((sum, [, stats]) => sum + (stats as { count: number }).count, 0);
const growth = (after - before) / before;
const report = {
  seconds,
  connections,
  requests: result.requests.total,
  reqPerSec: Math.round(result.requests.average),
  p99Ms: result.latency.p99,
  socketErrors: result.errors,
  timeouts: result.timeouts,
  serverErrors,
  statuses: Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [
      code,
      (stats as { count: number }).count,
    ]),
  ),
  rssMbFirstSeconds: Math.round(before),
  rssMbLastSeconds: Math.round(after),
  rssMbMax: Math.round(Math.max(...rss)),
  rssGrowthPercent: Math.round(growth * 1000) / 10,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
const failed = result.errors > 0 || result.timeouts > 0 || serverErrors > 0 || growth >= 0.2;
process.stdout.write(
  failed ? 'soak: FAILED\n' : 'soak: passed (no errors, memory growth under 20%)\n',
);
process.exitCode = failed ? 1 : 0;
