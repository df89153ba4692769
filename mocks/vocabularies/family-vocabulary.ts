import type { Seniority } from './seniority.ts';

/** The shape every job family's data file satisfies; vocabularies are data, not schemas. */
export type FamilyVocabulary = {
  readonly id: string;
  readonly label: string;
  /** Families whose hard skills a profile may borrow one of, as people drift between fields. */
  readonly neighbours: readonly string[];
  /** Unique within the family, so a title alone tells its seniority. */
  readonly titles: { readonly [S in Seniority]: readonly string[] };
  readonly hardSkills: readonly string[];
  readonly softSkills: readonly string[];
  /** `{last}` takes a family name and `{city}` a city name. */
  readonly employers: readonly string[];
  readonly degrees: { readonly bachelor: readonly string[]; readonly master: readonly string[] };
  /** Gross yearly salary in EUR, [min, max]. */
  readonly salary: { readonly [S in Seniority]: readonly [number, number] };
  readonly focus: readonly string[];
  readonly achievements: readonly string[];
  readonly jobSummaries: readonly string[];
  readonly responsibilities: readonly string[];
  readonly requirements: readonly string[];
};
