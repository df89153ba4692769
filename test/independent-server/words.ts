/** Hand-written vocabularies for the independent server's data. */

export const CITIES = [
  { city: 'Lyon', country: 'France', postcode: '69002', lat: 45.764, lng: 4.8357 },
  { city: 'Paris', country: 'France', postcode: '75002', lat: 48.8566, lng: 2.3522 },
  { city: 'Zürich', country: 'Switzerland', postcode: '8001', lat: 47.3769, lng: 8.5417 },
  { city: 'São Paulo', country: 'Brazil', postcode: '01000-000', lat: -23.5505, lng: -46.6333 },
  { city: 'Kraków', country: 'Poland', postcode: '30-001', lat: 50.0647, lng: 19.945 },
  { city: 'Berlin', country: 'Germany', postcode: '10115', lat: 52.52, lng: 13.405 },
  { city: 'Montréal', country: 'Canada', postcode: 'H2Y 1C6', lat: 45.5019, lng: -73.5674 },
  { city: 'London', country: 'United Kingdom', postcode: 'EC1A 1BB', lat: 51.5072, lng: -0.1276 },
  { city: 'Madrid', country: 'Spain', postcode: '28013', lat: 40.4168, lng: -3.7038 },
  { city: 'Villeurbanne', country: 'France', postcode: '69100', lat: 45.7719, lng: 4.8902 },
  { city: '北京', country: 'China', postcode: '100000', lat: 39.9042, lng: 116.4074 },
] as const;

export type City = (typeof CITIES)[number];

export const FAMILIES = [
  {
    name: 'data',
    titles: ['Data Engineer', 'Data Analyst', 'Machine Learning Engineer', 'Ingénieur données'],
    skills: ['Python', 'SQL', 'Apache Spark', 'Airflow', 'Kafka', 'Pandas', 'dbt'],
    degree: 'MSc Data Science',
    pitch: 'pipelines, dashboards and 数据 quality checks',
  },
  {
    name: 'software',
    titles: ['Backend Developer', 'Frontend Developer', 'Software Engineer', 'Entwickler'],
    skills: ['TypeScript', 'Node.js', 'React', 'Go', 'PostgreSQL', 'Docker', 'Kubernetes'],
    degree: 'BSc Computer Science',
    pitch: 'web services, APIs and reliable déploiements',
  },
  {
    name: 'sales',
    titles: ['Account Executive', 'Sales Manager', 'Business Developer', 'Représentant'],
    skills: ['Negotiation', 'Salesforce', 'Prospecting', 'CRM', 'Cold calling', 'Forecasting'],
    degree: 'Master in Business',
    pitch: 'closing deals, growing accounts and trade fairs in Köln',
  },
  {
    name: 'nursing',
    titles: ['Registered Nurse', 'Nurse Practitioner', 'Infirmière', 'Care Coordinator'],
    skills: ['Patient care', 'Triage', 'Phlebotomy', 'Wound care', 'ICU', 'Pédiatrie'],
    degree: 'Bachelor of Nursing',
    pitch: 'patient care, night shifts and calm triage',
  },
  {
    name: 'finance',
    titles: ['Financial Analyst', 'Accountant', 'Controller', 'Analyste financier'],
    skills: ['Excel', 'IFRS', 'Budgeting', 'SAP', 'Financial modelling', 'Audit'],
    degree: 'MSc Finance',
    pitch: 'budgets, closing and clear reports',
  },
] as const;

export type Family = (typeof FAMILIES)[number];

export const SOFT_SKILLS = ['Teamwork', 'Communication', 'Mentoring', 'Curiosity', 'Rigour'];

export const FIRST_NAMES = [
  'Léa',
  'Zoë',
  'João',
  'Łukasz',
  'Amélie',
  'Jürgen',
  'Noah',
  'Inès',
  'Chloé',
  'Omar',
  'Sofia',
  'Björn',
  'Hana',
  'Mateo',
  'Priya',
  '磊',
] as const;

export const LAST_NAMES = [
  'Moreau',
  'Müller',
  'Silva',
  'Nowak',
  'Dubois',
  'García',
  'Kowalski',
  'Schmidt',
  'Bernard',
  'Okafor',
  'Nguyen',
  'Ståhl',
  'Wang',
  'Rossi',
] as const;

export const COMPANIES = [
  'Cartel Logistique',
  'Banque du Rhône',
  'Zürcher Versicherung',
  'Nordlicht GmbH',
  'Padaria Paulista',
  'Kraków Softworks',
  'Hôpital Saint-Éloi',
  'Acme Retail',
  'Blue Harbor Capital',
] as const;

export const SCHOOLS = [
  'Université Claude Bernard Lyon 1',
  'ETH Zürich',
  'Universidade de São Paulo',
  'Uniwersytet Jagielloński',
  'Technische Universität Berlin',
  'Sorbonne Université',
] as const;

export const LANGUAGES = ['French', 'English', 'German', 'Portuguese', 'Polish', 'Spanish'];

export const LEVELS = ['native', 'fluent', 'intermediate', 'basic'] as const;

export const INTERESTS = ['Climbing', 'Chess', 'Photography', 'Cooking', 'Running', 'Café'];

export const REMOTE = ['yes', 'no', 'hybrid'] as const;

export const SENIORITY = ['junior', 'mid', 'senior'] as const;

export const STAGES = ['yes', 'no', 'later'] as const;

export const EMOJI_SUMMARY = 'Ships features fast 🚀 and keeps the team happy ☕.';
