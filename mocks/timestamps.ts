import type { Faker } from '@faker-js/faker';
import { REFERENCE_MS } from './reference-date.ts';

const THREE_YEARS_S = 3 * 365 * 24 * 3600;

/** Created within three years before the reference date, updated between then and that date. */
export function timestamps(faker: Faker): { created_at: string; updated_at: string } {
  const created = REFERENCE_MS - faker.number.int({ min: 60, max: THREE_YEARS_S }) * 1000;
  const updated = created + faker.number.int((REFERENCE_MS - created) / 1000) * 1000;
  return {
    created_at: new Date(created).toISOString(),
    updated_at: new Date(updated).toISOString(),
  };
}
