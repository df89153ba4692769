import type { Faker } from '@faker-js/faker';
import { containerFor } from './containers.ts';
import type { Container, Label } from './contract-types.ts';
import { jobReference } from './job-at.ts';
import { keyOf } from './keys.ts';
import { REFERENCE_MS } from './reference-date.ts';

/** The jobs of the same fixture set, which a profile's labels name. */
export type JobSet = { count: number; boards: readonly Container[] };

/** About one gradable profile in five has been put at a stage for one to three jobs. */
const LABELLED_SHARE = 0.2;
/**
 * Most applications go to a few busy openings: this share of labels names one of the first
 * `BUSY_JOBS` jobs (both boards), so those jobs have profiles at every stage, as a pipeline does.
 */
const BUSY_SHARE = 0.6;
const BUSY_JOBS = 24;
const STAGE_CHOICES = [
  { weight: 40, value: 'yes' },
  { weight: 35, value: 'later' },
  { weight: 25, value: 'no' },
] as const;

/**
 * The stages recruiters gave a profile for jobs of the set (`profile.labels`), dated between the
 * profile's creation and the reference date, with a rating most of the time.
 */
export function labelsFor(
  faker: Faker,
  seed: number,
  jobs: JobSet | undefined,
  createdAt: string,
): Label[] {
  if (jobs === undefined || jobs.count === 0 || faker.number.float() >= LABELLED_SHARE) return [];
  const count = Math.min(jobs.count, faker.number.int({ min: 1, max: 3 }));
  const busy = Math.min(jobs.count, BUSY_JOBS);
  const pick = () => faker.number.int((faker.number.float() < BUSY_SHARE ? busy : jobs.count) - 1);
  const indexes = faker.helpers.uniqueArray(pick, count);
  const created = Date.parse(createdAt);
  return indexes.map((index) => {
    const staged = created + faker.number.int((REFERENCE_MS - created) / 1000) * 1000;
    const rated = faker.number.int(9) < 7;
    return {
      board_key: containerFor(jobs.boards, index).key,
      job_key: keyOf(seed, 'job', index),
      job_reference: jobReference(index),
      stage: faker.helpers.weightedArrayElement(STAGE_CHOICES),
      date_stage: new Date(staged).toISOString(),
      rating: rated ? faker.number.int({ min: 1, max: 5 }) : null,
      date_rating: rated ? new Date(staged).toISOString() : null,
    };
  });
}
