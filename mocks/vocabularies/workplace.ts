/** Phrases any employer might write, whatever the job family. */
export const CULTURES = [
  'Small teams, written decisions, no meetings on Wednesdays.',
  'A flat organisation where everyone talks to customers.',
  'We ship often, review kindly and learn from incidents without blame.',
  'A diverse team of 40 nationalities that values curiosity.',
  'Family-owned for three generations, with long-term thinking.',
  'Mission-driven: we measure success by the people we help.',
] as const;

export const BENEFITS = [
  'Hybrid work',
  '27 days of leave',
  'Training budget',
  'Health insurance',
  'Company pension plan',
  'Public transport pass',
  'Meal vouchers',
  'Parental leave beyond the legal minimum',
  'Yearly bonus',
  'Bike lease',
] as const;

export const INTERVIEWS = [
  'A call with a recruiter, a case study, a meeting with the team.',
  'A video call with the hiring manager, then a half-day on site.',
  'A short phone screen, a practical exercise and a final interview.',
  'Two interviews and a reference check; answers within a week.',
] as const;

export const EMAIL_DOMAINS = [
  'gmail.com',
  'outlook.com',
  'yahoo.com',
  'proton.me',
  'icloud.com',
  'hotmail.com',
] as const;

export const INTERESTS = [
  'Climbing',
  'Running',
  'Photography',
  'Chess',
  'Cooking',
  'Cycling',
  'Volunteering',
  'Jazz',
  'Hiking',
  'Open source',
  'Board games',
  'Yoga',
  'Reading',
  'Sailing',
  'Gardening',
] as const;
