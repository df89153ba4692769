import { keyOf, type Random, seeded } from './random.ts';
import type {
  Container,
  Education,
  Experience,
  Job,
  Label,
  Place,
  Profile,
  Store,
} from './types.ts';
import {
  CITIES,
  type City,
  COMPANIES,
  EMOJI_SUMMARY,
  FAMILIES,
  FIRST_NAMES,
  INTERESTS,
  LANGUAGES,
  LAST_NAMES,
  LEVELS,
  REMOTE,
  SCHOOLS,
  SENIORITY,
  SOFT_SKILLS,
  STAGES,
} from './words.ts';

const DAY = 86_400_000;
/** Every date is before this one: the data never depends on the clock. */
const NOW = Date.UTC(2025, 8, 30);
const START = Date.UTC(2021, 0, 4);
const PROFILES_PER_SOURCE = 60;
const JOBS_PER_BOARD = 40;
/** The profiles (source:index) that hold contact details only: nothing to grade. */
const CONTACT_ONLY = ['0:4', '1:47'];

const iso = (ms: number): string => new Date(ms).toISOString();
const years = (ms: number): number => Math.round((ms / (365.25 * DAY)) * 10) / 10;

const place = (city: City): Place => ({
  text: `${city.city}, ${city.country}`,
  lat: city.lat,
  lng: city.lng,
  gmaps: null,
  fields: {
    city: city.city,
    country: city.country,
    country_region: null,
    postcode: city.postcode,
    state: null,
    road: null,
    text: `${city.city}, ${city.country}`,
  },
});

const container = (label: string, name: string, subtype: string): Container => ({
  key: keyOf(`independent:${label}`),
  name,
  type: 'api',
  subtype,
  environment: 'production',
});

/** Created dates spread over four and a half years, one item a little after the one before. */
const createdAt = (r: Random, index: number, count: number): number =>
  START + Math.floor(((NOW - START - 200 * DAY) * index) / count) + r.int(0, 20 * DAY);

const buildJob = (r: Random, board: Container, b: number, j: number): Job => {
  const family = r.pick(FAMILIES);
  const seniority = r.pick(SENIORITY);
  const city = r.pick(CITIES);
  const title = r.pick(family.titles);
  const skills = r.some(family.skills, r.int(3, 5));
  const created = createdAt(r, j, JOBS_PER_BOARD);
  const minYears = seniority === 'junior' ? 0 : seniority === 'mid' ? 3 : 6;
  const reference = `ind-job-${b}-${String(j).padStart(3, '0')}`;
  const summary =
    j % 9 === 2 ? EMOJI_SUMMARY : `Join us in ${city.city} to work on ${family.pitch}.`;
  return {
    id: 1000 * (b + 1) + j,
    key: keyOf(`independent:job:${b}:${j}`),
    reference,
    board_key: board.key,
    board,
    name: `${seniority[0]?.toUpperCase()}${seniority.slice(1)} ${title}`,
    url: `https://careers.example.com/jobs/${reference}`,
    summary,
    location: place(city),
    sections: [
      {
        name: 'description',
        title: 'The role',
        description: `You will use ${skills.join(', ')} every week.`,
      },
    ],
    culture: 'Small teams, written decisions.',
    benefits: 'Hybrid work, training budget.',
    responsibilities: `Own ${family.pitch}.`,
    requirements: `${minYears} years or more with ${skills[0]}.`,
    interviews: 'A call, a case, a meeting with the team.',
    skills: [
      ...skills.map((name) => ({ name, type: 'hard' as const, value: null })),
      { name: r.pick(SOFT_SKILLS), type: 'soft', value: null },
    ],
    languages: r.some(LANGUAGES, r.int(1, 2)).map((name) => ({ name, value: r.pick(LEVELS) })),
    certifications: [],
    courses: [],
    tasks: [{ name: `Own ${family.name}`, value: null }],
    tags: [
      { name: 'remote', value: r.pick(REMOTE) },
      { name: 'family', value: family.name },
    ],
    metadatas: [{ name: 'seniority', value: seniority }],
    ranges_float: [
      { name: 'salary', value_min: 30000 + 1000 * r.int(0, 40), value_max: null, unit: 'EUR' },
      { name: 'experience', value_min: minYears, value_max: minYears + 4, unit: 'years' },
    ],
    ranges_date: [],
    created_at: iso(created),
    updated_at: iso(Math.min(NOW, created + r.int(0, 90) * DAY)),
    archived_at: null,
  };
};

const stint = (r: Random, label: string, city: City, start: number, end: number | null) => ({
  key: keyOf(label),
  logo: null,
  location: place(city),
  date_start: iso(start),
  date_end: end === null ? null : iso(end),
  certifications: [],
  courses: [],
  tasks: [{ name: r.pick(['Mentor juniors', 'Write reports', 'Talk to clients']), value: null }],
  languages: [],
  interests: [],
});

/** Labels a recruiter gave: the first board's first job gets one of each stage. */
const labelsFor = (r: Random, s: number, p: number, jobs: Job[]): Label[] => {
  const chosen = s === 0 && p < 9 ? [jobs[0]] : r.next() < 0.3 ? [r.pick(jobs)] : [];
  return chosen.flatMap((job) =>
    job === undefined
      ? []
      : [
          {
            board_key: job.board_key,
            job_key: job.key,
            job_reference: job.reference,
            stage: STAGES[(p + s) % 3] ?? 'yes',
            date_stage: job.created_at,
            rating: r.int(1, 5),
            date_rating: null,
          },
        ],
  );
};

const buildProfile = (r: Random, source: Container, s: number, p: number, jobs: Job[]) => {
  const family = r.pick(FAMILIES);
  const city = r.pick(CITIES);
  const first = r.pick(FIRST_NAMES);
  const last = r.pick(LAST_NAMES);
  const created = createdAt(r, p, PROFILES_PER_SOURCE);
  const contactOnly = CONTACT_ONLY.includes(`${s}:${p}`);
  const skills = contactOnly ? [] : r.some(family.skills, r.int(3, 5));
  let at = created - r.int(2, 16) * 365 * DAY;
  const experiences: Experience[] = contactOnly
    ? []
    : Array.from({ length: r.int(1, 3) }, (_, e) => {
        const start = at;
        const end = Math.min(created, start + r.int(200, 1500) * DAY);
        at = end + r.int(10, 90) * DAY;
        const company = r.pick(COMPANIES);
        return {
          ...stint(r, `independent:exp:${s}:${p}:${e}`, r.pick(CITIES), start, end),
          company,
          title: r.pick(family.titles),
          description: `At ${company}: ${family.pitch}.`,
          skills: r.some(skills, 2).map((name) => ({ name, type: 'hard' as const, value: null })),
        };
      });
  const schoolEnd = created - r.int(3, 18) * 365 * DAY;
  const educations: Education[] = contactOnly
    ? []
    : [
        {
          ...stint(
            r,
            `independent:edu:${s}:${p}`,
            r.pick(CITIES),
            schoolEnd - r.int(2, 5) * 365 * DAY,
            schoolEnd,
          ),
          school: r.pick(SCHOOLS),
          title: family.degree,
          description: null,
          skills: [],
        },
      ];
  const summary = contactOnly
    ? null
    : p % 11 === 5
      ? EMOJI_SUMMARY
      : `${r.pick(family.titles)} based in ${city.city}, fond of ${family.pitch}.`;
  const full = `${first} ${last}`;
  const languages = contactOnly
    ? []
    : r.some(LANGUAGES, r.int(1, 3)).map((name) => ({ name, value: r.pick(LEVELS) }));
  const allSkills = [
    ...skills.map((name) => ({ name, type: 'hard' as const, value: null })),
    ...(contactOnly ? [] : [{ name: r.pick(SOFT_SKILLS), type: 'soft' as const, value: null }]),
  ];
  const text = [
    `${full}.`,
    summary ?? '',
    ...experiences.map((x) => `${x.title}, ${x.company}, ${x.location.text}. ${x.description}`),
    ...educations.map((x) => `${x.title}, ${x.school}.`),
    allSkills.length > 0 ? `Skills: ${allSkills.map((x) => x.name).join(', ')}.` : '',
    languages.length > 0 ? `Languages: ${languages.map((x) => x.name).join(', ')}.` : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
  const sum = (list: { date_start: string | null; date_end: string | null }[]) =>
    years(
      list.reduce((t, x) => t + Date.parse(x.date_end ?? '') - Date.parse(x.date_start ?? ''), 0),
    );
  const profile: Profile = {
    id: 100_000 * (s + 1) + p,
    key: keyOf(`independent:profile:${s}:${p}`),
    reference: `ind-cand-${s}-${String(p).padStart(3, '0')}`,
    source_key: source.key,
    source,
    info: {
      full_name: full,
      first_name: first,
      last_name: last,
      email: `${s}.${p}.${last.toLowerCase()}@example.com`,
      phone: `+33 6 ${String(10 + s).padStart(2, '0')} ${String(p).padStart(2, '0')} 00 00`,
      date_birth: null,
      driving_license: null,
      gender: null,
      picture: null,
      summary,
      location: place(city),
      urls: [{ type: 'linkedin', url: null }],
    },
    text_language: 'en',
    text,
    created_at: iso(created),
    updated_at: iso(Math.min(NOW, created + r.int(0, 400) * DAY)),
    archived_at: null,
    experiences_duration: contactOnly ? null : sum(experiences),
    educations_duration: contactOnly ? null : sum(educations),
    experiences,
    educations,
    attachments: [],
    skills: allSkills,
    languages,
    certifications: [],
    courses: [],
    tasks: [],
    interests: contactOnly
      ? []
      : r.some(INTERESTS, r.int(0, 2)).map((name) => ({ name, value: null })),
    tags: [
      { name: 'remote', value: r.pick(REMOTE) },
      { name: 'family', value: family.name },
    ],
    metadatas: [{ name: 'seniority', value: r.pick(SENIORITY) }],
    labels: labelsFor(r, s, p, jobs),
  };
  return profile;
};

/** The whole store: 2 sources of 60 profiles, 2 boards of 40 jobs, from one seed. */
export const buildStore = (seed = 7): Store => {
  const r = seeded(seed);
  const sources = [
    container('source:0', 'Talent pool', 'ats'),
    container('source:1', 'Référentiel candidats', 'crm'),
  ];
  const boards = [
    container('board:0', 'Careers site', 'careers'),
    container('board:1', 'Agency board', 'agency'),
  ];
  const jobs = boards.flatMap((board, b) =>
    Array.from({ length: JOBS_PER_BOARD }, (_, j) => buildJob(r, board, b, j)),
  );
  const profiles = sources.flatMap((source, s) =>
    Array.from({ length: PROFILES_PER_SOURCE }, (_, p) => buildProfile(r, source, s, p, jobs)),
  );
  return { sources, boards, profiles, jobs };
};
