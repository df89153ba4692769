/** Levels as the example profiles in the contract spell them, strongest first. */
export const LANGUAGE_LEVELS = [
  'native',
  'fluent',
  'professional',
  'intermediate',
  'basic',
] as const;

export type LanguageLevel = (typeof LANGUAGE_LEVELS)[number];

/** Second and third languages people list, beyond their native one and English. */
export const FOREIGN_LANGUAGES = [
  'French',
  'German',
  'Spanish',
  'Italian',
  'Dutch',
  'Portuguese',
  'Polish',
  'Swedish',
  'Mandarin',
  'Arabic',
  'Japanese',
] as const;
