import type { Faker } from '@faker-js/faker';
import type { NamedValue } from './contract-types.ts';
import { nativeLanguageOf } from './places.ts';
import { sharedNamedValue } from './shared-values.ts';
import type { City } from './vocabularies/cities.ts';
import { FOREIGN_LANGUAGES, type LanguageLevel } from './vocabularies/languages.ts';

const ENGLISH = 'English';

const ENGLISH_LEVELS: { weight: number; value: LanguageLevel }[] = [
  { weight: 35, value: 'fluent' },
  { weight: 35, value: 'professional' },
  { weight: 20, value: 'intermediate' },
  { weight: 10, value: 'basic' },
];

const THIRD_LEVELS: LanguageLevel[] = ['professional', 'intermediate', 'basic'];

/** The local language natively, English at some level, sometimes a third language. */
export function profileLanguages(faker: Faker, city: City): NamedValue[] {
  const native = nativeLanguageOf(city);
  const english =
    native === ENGLISH
      ? null
      : sharedNamedValue(ENGLISH, faker.helpers.weightedArrayElement(ENGLISH_LEVELS));
  const third = faker.number.int(99) < 35 ? faker.helpers.arrayElement(FOREIGN_LANGUAGES) : native;
  const extra =
    third === native ? null : sharedNamedValue(third, faker.helpers.arrayElement(THIRD_LEVELS));
  return present([sharedNamedValue(native, 'native'), english, extra]);
}

/** English at a working level; the local language too in most offices outside English countries. */
export function jobLanguages(faker: Faker, city: City): NamedValue[] {
  const english = sharedNamedValue(ENGLISH, faker.helpers.arrayElement(['fluent', 'professional']));
  const native = nativeLanguageOf(city);
  if (native === ENGLISH || faker.number.int(99) >= 60) return [english];
  return [english, sharedNamedValue(native, null)];
}

function present<T>(items: (T | null)[]): T[] {
  return items.filter((item): item is T => item !== null);
}
