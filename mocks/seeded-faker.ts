import type { Faker } from '@faker-js/faker';
// The English entry loads English and the base locale only: the package's main entry builds a
// Faker for every one of its locales on import.
import { faker as english } from '@faker-js/faker/locale/en';
import { createSfc32Randomizer } from './randomizer.ts';

/** One independent stream per kind of object, the second part of every sub-seed. */
export const STREAMS = { profile: 1, job: 2 } as const;

/** The entry exports an instance only; its class is the one every Faker is made with. */
const FakerClass = english.constructor as typeof Faker;

/** A private Faker: the global `faker` is shared state any import could reseed. */
export function createSeededFaker(): Faker {
  // `rawDefinitions` is English merged over the base locale, as `[en, base]` is merged.
  return new FakerClass({ locale: english.rawDefinitions, randomizer: createSfc32Randomizer() });
}
