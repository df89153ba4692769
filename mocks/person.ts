import type { Faker } from '@faker-js/faker';
import type { Url } from './contract-types.ts';
import { flat } from './flat.ts';
import { phoneIn } from './places.ts';
import type { City } from './vocabularies/cities.ts';
import { EMAIL_DOMAINS } from './vocabularies/workplace.ts';

const GENDERS = ['female', 'male'] as const;

export type Person = {
  first_name: string;
  last_name: string;
  full_name: string;
  email: string;
  phone: string;
  gender: 'female' | 'male';
  /** Lowercase ASCII `first-last`, the base of email and profile URLs. */
  handle: string;
};

/** A name, and the contact details a recruiter would derive from it. */
export function personIn(faker: Faker, city: City): Person {
  const gender = faker.helpers.arrayElement(GENDERS);
  const first = faker.person.firstName(gender);
  const last = faker.person.lastName();
  const handle = `${ascii(first)}-${ascii(last)}`;
  // Common names repeat; a number after some of them keeps most addresses distinct, as in life.
  const suffix = faker.number.int(9) < 4 ? String(faker.number.int({ min: 1, max: 99 })) : '';
  return {
    first_name: first,
    last_name: last,
    full_name: flat`${first} ${last}`,
    email: flat`${handle.replace('-', '.')}${suffix}@${faker.helpers.arrayElement(EMAIL_DOMAINS)}`,
    phone: phoneIn(faker, city),
    gender,
    handle,
  };
}

/** LinkedIn always (its handles end in a short id, taken from the key), GitHub for coders. */
export function profileUrls(person: Person, key: string, withGithub: boolean): Url[] {
  const linkedin = {
    type: 'linkedin',
    url: flat`https://www.linkedin.com/in/${person.handle}-${key.slice(0, 8)}`,
  };
  if (!withGithub) return [linkedin];
  return [
    linkedin,
    { type: 'github', url: flat`https://github.com/${person.handle.replace('-', '')}` },
  ];
}

function ascii(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
}
