/** The shapes this server keeps, written from the contract's Profile and Job schemas. */

export type Named = { name: string; value: string | null };
export type Skill = { name: string; type: 'hard' | 'soft'; value: string | null };

export type Place = {
  text: string | null;
  lat: number | null;
  lng: number | null;
  gmaps: string | null;
  fields: Record<string, string | null> | [];
};

export type Container = {
  key: string;
  name: string;
  type: string | null;
  subtype: string | null;
  environment: string | null;
};

export type Stint = {
  key: string;
  title: string | null;
  description: string | null;
  logo: string | null;
  location: Place;
  date_start: string | null;
  date_end: string | null;
  skills: Skill[];
  certifications: Named[];
  courses: Named[];
  tasks: Named[];
  languages: Named[];
  interests: Named[];
};

export type Experience = Stint & { company: string | null };
export type Education = Stint & { school: string | null };

export type Label = {
  board_key: string;
  job_key: string;
  job_reference: string | null;
  stage: 'yes' | 'no' | 'later';
  date_stage: string | null;
  rating: number | null;
  date_rating: string | null;
};

export type Profile = {
  id: number;
  key: string;
  reference: string | null;
  source_key: string;
  source: Container;
  info: {
    full_name: string | null;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    phone: string | null;
    date_birth: string | null;
    driving_license: string | null;
    gender: string | null;
    picture: string | null;
    summary: string | null;
    location: Place;
    urls: { type: string; url: string | null }[];
  };
  text_language: string | null;
  text: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  experiences_duration: number | null;
  educations_duration: number | null;
  experiences: Experience[];
  educations: Education[];
  attachments: unknown[];
  skills: Skill[];
  languages: Named[];
  certifications: Named[];
  courses: Named[];
  tasks: Named[];
  interests: Named[];
  tags: Named[];
  metadatas: Named[];
  labels: Label[];
};

export type Job = {
  id: number;
  key: string;
  reference: string | null;
  board_key: string;
  board: Container;
  name: string;
  url: string | null;
  summary: string | null;
  location: Place;
  sections: { name: string; title: string | null; description: string | null }[];
  culture: string | null;
  benefits: string | null;
  responsibilities: string | null;
  requirements: string | null;
  interviews: string | null;
  skills: Skill[];
  languages: Named[];
  certifications: Named[];
  courses: Named[];
  tasks: Named[];
  tags: Named[];
  metadatas: Named[];
  ranges_float: {
    name: string;
    value_min: number | null;
    value_max: number | null;
    unit: string | null;
  }[];
  ranges_date: { name: string; value_min: string | null; value_max: string | null }[];
  created_at: string;
  updated_at: string;
  archived_at: string | null;
};

export type Store = {
  sources: Container[];
  boards: Container[];
  profiles: Profile[];
  jobs: Job[];
};

/** hrmock's target file format, plus the scoring algorithm of each side. */
export type Target = {
  headers: Record<string, string>;
  profiles: {
    algorithm_key: string;
    scoring_algorithm_key: string;
    source_keys: string[];
    board_key: string;
    job_key: string;
    profile_ids: { source_key: string; profile_key: string }[];
  };
  jobs: {
    algorithm_key: string;
    scoring_algorithm_key: string;
    board_keys: string[];
    source_key: string;
    profile_key: string;
    job_ids: { board_key: string; job_key: string }[];
  };
};
