import type { Education, Experience, NamedValue, Skill } from './contract-types.ts';
import { flat } from './flat.ts';

/** `Senior Data Engineer with 6 years of experience in product analytics, skilled in …`. */
export function summaryOf(title: string, months: number, focus: string, skills: Skill[]): string {
  const years = Math.floor(months / 12);
  const span = years === 0 ? 'less than a year' : years === 1 ? 'one year' : `${years} years`;
  const [a, b, c] = skills.filter((skill) => skill.type === 'hard').map((skill) => skill.name);
  return flat`${title} with ${span} of experience in ${focus}, skilled in ${a}, ${b} and ${c}.`;
}

export type TextParts = {
  fullName: string;
  summary: string;
  experiences: Experience[];
  educations: Education[];
  skills: Skill[];
  languages: NamedValue[];
};

/** What a keyword search reads: the profile as a recruiter would skim it, top to bottom. */
export function profileText(parts: TextParts): string {
  const jobs = parts.experiences.map(
    (e) =>
      `${e.title} at ${e.company}, ${e.location.text}, ${yearOf(e.date_start)} to ${yearOf(e.date_end) ?? 'now'}. ${e.description}`,
  );
  const degrees = parts.educations.map((e) => `${e.title}, ${e.school}, ${yearOf(e.date_end)}.`);
  const skills = parts.skills.map((skill) => skill.name).join(', ');
  const languages = parts.languages.map((language) => language.name).join(', ');
  return [
    `${parts.fullName}.`,
    parts.summary,
    ...jobs,
    ...degrees,
    `Skills: ${skills}.`,
    `Languages: ${languages}.`,
  ].join(' ');
}

function yearOf(iso: string | null | undefined): string | null {
  return iso == null ? null : iso.slice(0, 4);
}
