export const SENIORITIES = ['junior', 'mid', 'senior', 'lead'] as const;

export type Seniority = (typeof SENIORITIES)[number];

/** Years of experience each seniority stands for; profiles and job ranges both follow it. */
export const SENIORITY_YEARS = {
  junior: [0, 2],
  mid: [2, 5],
  senior: [5, 10],
  lead: [8, 15],
} as const satisfies Record<Seniority, readonly [number, number]>;

/** How often each seniority is drawn: pyramids are wider at the bottom. */
export const SENIORITY_WEIGHTS = {
  junior: 26,
  mid: 36,
  senior: 26,
  lead: 12,
} as const satisfies Record<Seniority, number>;
