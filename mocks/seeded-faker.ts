import { base, en, Faker } from '@faker-js/faker';
import { createSfc32Randomizer } from './randomizer.ts';

/** One independent stream per kind of object, the second part of every sub-seed. */
export const STREAMS = { profile: 1, job: 2 } as const;

/** A private Faker: the global `faker` is shared state any import could reseed. */
export function createSeededFaker(): Faker {
  return new Faker({ locale: [en, base], randomizer: createSfc32Randomizer() });
}
