import { expect, it } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { matchScorer } from '../../src/hr/match.ts';
import { createStore } from '../../src/store/store.ts';
import type { Job } from '../../src/store/types.ts';
import { matchScore } from './reference/scan-match.ts';
import { createScanStore } from './reference/scan-store.ts';

/** Jobs missing, in turn, each thing a score reads, so every "not given" branch is scored. */
function thinned(job: Job, index: number): Job {
  switch (index % 6) {
    case 0:
      return { ...job, languages: [] };
    case 1:
      return { ...job, skills: job.skills.filter((s) => s.type !== 'hard') };
    case 2:
      return { ...job, skills: [...job.skills, ...job.skills.slice(0, 2)], ranges_float: [] };
    case 3:
      return { ...job, location: { ...job.location, lat: null, lng: null } };
    case 4:
      return { ...job, metadatas: [], tags: [] };
    default:
      return job;
  }
}

it('scores every profile against every job exactly as the scan store did', () => {
  const built = buildFixtures({ seed: 5, profiles: 400, jobs: 120 });
  const fixtures = { ...built, jobs: built.jobs.map(thinned) };
  const store = createStore(fixtures);
  const scan = createScanStore(fixtures);
  for (const algorithm of ['scorer', 'grading:ai', 'é|ü']) {
    const score = matchScorer(store.profile, store.job, algorithm);
    const mismatches: string[] = [];
    scan.profile.docs.forEach((profile, p) => {
      scan.job.docs.forEach((job, j) => {
        const expected = matchScore(profile, job, algorithm);
        const actual = score(p, j);
        if (!Object.is(actual, expected)) mismatches.push(`${p}×${j}: ${actual} ≠ ${expected}`);
      });
    });
    expect(mismatches.slice(0, 5), algorithm).toEqual([]);
  }
});
