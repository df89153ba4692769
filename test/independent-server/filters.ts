import type { Criteria, Near, Stage } from './criteria.ts';
import type { Filter, Point } from './params.ts';
import type { Job, Label, Named, Place, Profile } from './types.ts';

/** Case-insensitive, and the same for composed and decomposed accents. */
export const fold = (text: string): string => text.normalize('NFC').toLowerCase();

const containsAll = (text: string, words: readonly string[]): boolean => {
  const folded = fold(text);
  return words.every((word) => folded.includes(fold(word)));
};

/** Great-circle distance in km. */
export const kmBetween = (a: Point, b: Point): number => {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
};

/** Distance from a point to a place, infinite when the place has no coordinates. */
export const kmTo = (point: Point, place: Place): number =>
  place.lat === null || place.lng === null
    ? Number.POSITIVE_INFINITY
    : kmBetween(point, { lat: place.lat, lng: place.lng });

const within = (near: Near | undefined, places: Place[]): boolean =>
  near === undefined || places.some((place) => kmTo(near, place) <= near.km);

const matches = (items: Named[], filter: Filter, byName = false): boolean =>
  items.some(
    (item) =>
      fold(item.name) === fold(filter.name) &&
      (byName ||
        filter.value === null ||
        (item.value !== null && fold(item.value) === fold(filter.value))),
  );

const between = (value: number | null, min: number | undefined, max: number | undefined) =>
  (min === undefined && max === undefined) ||
  (value !== null && value >= (min ?? value) && value <= (max ?? value));

/** The filters both sides share; `stages` are the stages of the labels that count for the item. */
const common = (
  c: Criteria,
  item: { created_at: string; skills: Named[]; languages: Named[]; tags: Named[] },
  stages: Label['stage'][],
): boolean => {
  const created = Date.parse(item.created_at);
  return (
    c.skills.every((skill) => matches(item.skills, skill, true)) &&
    c.languages.every((language) => matches(item.languages, language)) &&
    c.tagGroups.every((group) => group.some((tag) => matches(item.tags, tag))) &&
    !c.tagsExcluded.some((tag) => matches(item.tags, tag)) &&
    created >= (c.createdMin ?? created) &&
    created <= (c.createdMax ?? created) &&
    stageHolds(c.stage, stages)
  );
};

const stageHolds = (stage: Stage | undefined, stages: Label['stage'][]): boolean =>
  stage === undefined || (stage === 'new' ? stages.length === 0 : stages.includes(stage));

const stintText = (x: { title: string | null; description: string | null }, where: string | null) =>
  [x.title, where, x.description].filter((part) => part !== null).join(' ');

/** Whether a profile passes every filter; `labels` are those that count for the stage. */
export const profilePasses = (c: Criteria, p: Profile, labels: Label[]): boolean =>
  common(
    c,
    p,
    labels.map((label) => label.stage),
  ) &&
  containsAll(p.text, c.keywords) &&
  within(c.near, [p.info.location]) &&
  between(p.experiences_duration, c.experienceMin, c.experienceMax) &&
  between(p.educations_duration, c.educationMin, c.educationMax) &&
  (c.name === undefined || containsAll(p.info.full_name ?? '', [c.name])) &&
  (c.email === undefined || fold(p.info.email ?? '') === fold(c.email.trim())) &&
  containsAll(p.info.summary ?? '', c.summaryKeywords) &&
  containsAll(p.experiences.map((x) => stintText(x, x.company)).join(' '), c.experienceKeywords) &&
  containsAll(p.educations.map((x) => stintText(x, x.school)).join(' '), c.educationKeywords) &&
  c.interests.every((interest) => matches(p.interests, interest)) &&
  within(
    c.experienceNear,
    p.experiences.map((x) => x.location),
  ) &&
  within(
    c.educationNear,
    p.educations.map((x) => x.location),
  );

/** The words a job is searched by. */
export const jobText = (j: Job): string =>
  [
    j.name,
    j.summary,
    j.location.text,
    ...j.sections.flatMap((section) => [section.title, section.description]),
    j.culture,
    j.benefits,
    j.responsibilities,
    j.requirements,
    j.interviews,
    ...j.skills.map((skill) => skill.name),
    ...j.tasks.map((task) => task.name),
  ]
    .filter((part) => part !== null)
    .join(' ');

/** The years of experience a job asks for: its `experience` range's minimum. */
export const yearsAsked = (j: Job): number | null =>
  j.ranges_float.find((range) => range.name === 'experience')?.value_min ?? null;

export const jobPasses = (c: Criteria, j: Job, labels: Label[]): boolean =>
  common(
    c,
    j,
    labels.map((label) => label.stage),
  ) &&
  containsAll(jobText(j), c.keywords) &&
  within(c.near, [j.location]) &&
  between(yearsAsked(j), c.experienceMin, c.experienceMax) &&
  (c.name === undefined || containsAll(j.name, [c.name])) &&
  containsAll(j.summary ?? '', c.summaryKeywords);

/** How often the distinct keywords occur; a keyword of several words counts its rarest word. */
export const relevance = (text: string, keywords: readonly string[]): number => {
  const folded = fold(text);
  const count = (word: string) => folded.split(fold(word)).length - 1;
  return keywords
    .map((keyword) => keyword.split(/\s+/).filter((word) => word !== ''))
    .map((words) => Math.min(...words.map(count)))
    .reduce((total, n) => total + n, 0);
};
