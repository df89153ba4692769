import type { Faker } from '@faker-js/faker';
import type { Location } from './contract-types.ts';
import { CITIES, type City } from './vocabularies/cities.ts';
import { COUNTRIES } from './vocabularies/countries.ts';

/** How far (in degrees) a home or an office may sit from its city centre. */
export const JITTER_DEGREES = 0.03;

const addresses = new Map<string, ReturnType<typeof addressOf>>(
  CITIES.map((city) => [city.name, addressOf(city)]),
);

const byCountry = new Map<string, City[]>();
for (const city of CITIES) {
  const list = byCountry.get(city.country) ?? [];
  list.push(city);
  byCountry.set(city.country, list);
}

/**
 * Experiences and educations point at the city centre; sharing one frozen object per city keeps
 * 100,000 profiles small, and freezing makes an accidental write fail loudly.
 */
const centres = new Map<string, Location>(
  CITIES.map((city) => [city.name, Object.freeze(locationAt(city, city.lat, city.lng))]),
);

export function pickCity(faker: Faker): City {
  return faker.helpers.arrayElement(CITIES);
}

/** Careers stay mostly in one city, sometimes move within the country. */
export function nearbyCity(faker: Faker, home: City): City {
  if (faker.number.int(99) < 70) return home;
  return faker.helpers.arrayElement(byCountry.get(home.country) ?? [home]);
}

export function cityCentre(city: City): Location {
  const centre = centres.get(city.name);
  if (centre === undefined) throw new Error(`${city.name} is not in the city vocabulary`);
  return centre;
}

/** A point near the city centre: addresses differ, so distances in searches differ too. */
export function jitteredLocation(faker: Faker, city: City): Location {
  const lat = round5(city.lat + faker.number.float({ min: -JITTER_DEGREES, max: JITTER_DEGREES }));
  const lng = round5(city.lng + faker.number.float({ min: -JITTER_DEGREES, max: JITTER_DEGREES }));
  return locationAt(city, lat, lng);
}

export function nativeLanguageOf(city: City): string {
  return city.language ?? COUNTRIES[city.country].language;
}

export function phoneIn(faker: Faker, city: City): string {
  return COUNTRIES[city.country].phone.replace(/[#N]/g, (slot) =>
    String(slot === 'N' ? faker.number.int({ min: 2, max: 9 }) : faker.number.int(9)),
  );
}

function locationAt(city: City, lat: number, lng: number): Location {
  const fields = addresses.get(city.name) ?? addressOf(city);
  return { text: fields.text, lat, lng, gmaps: null, fields };
}

function addressOf(city: City) {
  const text = `${city.name}, ${city.country}`;
  return Object.freeze({
    city: city.name,
    country: city.country,
    country_region: null,
    postcode: city.postcode,
    state: city.region,
    road: null,
    text,
  });
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}
