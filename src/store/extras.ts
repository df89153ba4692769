import type { Kind } from './kinds.ts';
import type { Job, Profile } from './types.ts';

/**
 * What the SDKs' older filters and orders read (names, emails, sections of a profile, interests,
 * places of experiences and educations, labels). Built in the store's one pass over the objects,
 * so no query ever waits for the objects to be made again; kept in a few flat columns (one string
 * per text field, typed arrays for the rest), not in an object per doc.
 */
export type Extras = {
  /** Lowercased: a profile's `info.full_name`, a job's `name`. */
  names: TextColumn;
  /** Lowercased `info.email`, or '' (jobs: always ''). */
  emails: TextColumn;
  /** Lowercased summary: `info.summary`, a job's `summary`. */
  summaries: TextColumn;
  /** Profiles: lowercased titles, companies and descriptions of the experiences. */
  experiences: TextColumn;
  /** Profiles: lowercased titles, schools and descriptions of the educations. */
  educations: TextColumn;
  /** Profiles: lowercased interest names and values. */
  interests: PairColumn;
  /** Profiles: `educations_duration`, NaN for none. */
  educationYears: Float64Array;
  /** Profiles: `[lat, lng, lat, lng, …]` of the located experiences / educations. */
  experiencePlaces: PlaceColumn;
  educationPlaces: PlaceColumn;
  /** Profiles: each label as `boardKey/jobKey` and its stage. */
  labels: PairColumn;
};

/** `boardKey/jobKey`: how a label names its job. */
export function jobRef(boardKey: string, jobKey: string): string {
  return `${boardKey}/${jobKey}`;
}

/** One string for all docs; doc i's text runs from `ends[i - 1]` (0 for the first) to `ends[i]`. */
export class TextColumn {
  private readonly text: string;
  private readonly ends: Uint32Array;

  constructor(text: string, ends: Uint32Array) {
    this.text = text;
    this.ends = ends;
  }

  at(i: number): string {
    return this.text.slice(i === 0 ? 0 : (this.ends[i - 1] as number), this.ends[i]);
  }
}

/** Per doc, a list of (name, value) pairs of interned strings; a value may be null. */
export class PairColumn {
  private readonly names: string[];
  private readonly values: (string | null)[];
  private readonly ends: Uint32Array;

  constructor(names: string[], values: (string | null)[], ends: Uint32Array) {
    this.names = names;
    this.values = values;
    this.ends = ends;
  }

  count(i: number): number {
    return (this.ends[i] as number) - this.start(i);
  }

  /** The value of the first pair of doc i named `name`, undefined when it has none. */
  first(i: number, name: string): string | null | undefined {
    for (let k = this.start(i); k < (this.ends[i] as number); k++)
      if (this.names[k] === name) return this.values[k];
    return undefined;
  }

  /** The value of the last pair of doc i named `name`, undefined when it has none. */
  last(i: number, name: string): string | null | undefined {
    for (let k = (this.ends[i] as number) - 1; k >= this.start(i); k--)
      if (this.names[k] === name) return this.values[k];
    return undefined;
  }

  /** Whether some pair of doc i has the value `value`. */
  hasValue(i: number, value: string): boolean {
    for (let k = this.start(i); k < (this.ends[i] as number); k++)
      if (this.values[k] === value) return true;
    return false;
  }

  /** Every pair of doc i, in order. */
  *of(i: number): Generator<[string, string | null]> {
    for (let k = this.start(i); k < (this.ends[i] as number); k++)
      yield [this.names[k] as string, this.values[k] as string | null];
  }

  private start(i: number): number {
    return i === 0 ? 0 : (this.ends[i - 1] as number);
  }
}

/** Per doc, the coordinates `[lat, lng, …]` of its located entries. */
export class PlaceColumn {
  private readonly coordinates: Float64Array;
  private readonly ends: Uint32Array;

  constructor(coordinates: Float64Array, ends: Uint32Array) {
    this.coordinates = coordinates;
    this.ends = ends;
  }

  /** The nearest distance from doc i's places to a point, by `distance`; Infinity for none. */
  nearest(i: number, distance: (lat: number, lng: number) => number): number {
    let nearest = Number.POSITIVE_INFINITY;
    const end = this.ends[i] as number;
    for (let k = i === 0 ? 0 : (this.ends[i - 1] as number); k < end; k += 2) {
      const d = distance(this.coordinates[k] as number, this.coordinates[k + 1] as number);
      if (d < nearest) nearest = d;
    }
    return nearest;
  }
}

/** The columns of `Extras`, one doc at a time, in index order. */
export class ExtrasBuilder {
  private readonly kind: Kind;
  private readonly texts: Record<
    'names' | 'emails' | 'summaries' | 'experiences' | 'educations',
    TextBuilder
  >;
  private readonly interests: PairBuilder;
  private readonly labels: PairBuilder;
  private readonly places: { experiences: PlaceBuilder; educations: PlaceBuilder };
  private readonly educationYears: Float64Array;

  constructor(kind: Kind, count: number) {
    this.kind = kind;
    this.texts = {
      names: new TextBuilder(count),
      emails: new TextBuilder(count),
      summaries: new TextBuilder(count),
      experiences: new TextBuilder(count),
      educations: new TextBuilder(count),
    };
    this.interests = new PairBuilder(count);
    this.labels = new PairBuilder(count);
    this.places = { experiences: new PlaceBuilder(count), educations: new PlaceBuilder(count) };
    this.educationYears = new Float64Array(count).fill(Number.NaN);
  }

  add(i: number, object: Profile | Job): void {
    if (this.kind === 'job') this.addJob(object as Job);
    else this.addProfile(i, object as Profile);
  }

  build(): Extras {
    const { texts, places } = this;
    return {
      names: texts.names.build(),
      emails: texts.emails.build(),
      summaries: texts.summaries.build(),
      experiences: texts.experiences.build(),
      educations: texts.educations.build(),
      interests: this.interests.build(),
      educationYears: this.educationYears,
      experiencePlaces: places.experiences.build(),
      educationPlaces: places.educations.build(),
      labels: this.labels.build(),
    };
  }

  private addJob(job: Job): void {
    const { texts } = this;
    texts.names.add(job.name);
    texts.emails.add('');
    texts.summaries.add(job.summary ?? '');
    texts.experiences.add('');
    texts.educations.add('');
    this.interests.end();
    this.labels.end();
    this.places.experiences.end();
    this.places.educations.end();
  }

  private addProfile(i: number, profile: Profile): void {
    const { info } = profile;
    const { texts } = this;
    texts.names.add(info.full_name ?? '');
    texts.emails.add(info.email ?? '');
    texts.summaries.add(info.summary ?? '');
    const experiences = profile.experiences ?? [];
    const educations = profile.educations ?? [];
    texts.experiences.add(sectionText(experiences.map((e) => [e.title, e.company, e.description])));
    texts.educations.add(sectionText(educations.map((e) => [e.title, e.school, e.description])));
    for (const { name, value } of profile.interests ?? [])
      this.interests.add(name.toLowerCase(), lowerValue(value));
    this.interests.end();
    for (const label of profile.labels ?? [])
      this.labels.add(jobRef(label.board_key, label.job_key), label.stage);
    this.labels.end();
    if (profile.educations_duration != null) this.educationYears[i] = profile.educations_duration;
    this.places.experiences.addAll(experiences);
    this.places.educations.addAll(educations);
  }
}

/** Each doc's text lowercased, all in one string: `TextColumn.at` cuts one doc's out again. */
class TextBuilder {
  private readonly parts: string[] = [];
  private readonly ends: Uint32Array;
  private length = 0;

  constructor(count: number) {
    this.ends = new Uint32Array(count);
  }

  add(text: string): void {
    const lowered = text.toLowerCase();
    this.length += lowered.length;
    this.ends[this.parts.length] = this.length;
    this.parts.push(lowered);
  }

  build(): TextColumn {
    return new TextColumn(this.parts.join(''), this.ends);
  }
}

/** Pairs of strings, each string kept once however many docs hold it. */
class PairBuilder {
  private readonly names: string[] = [];
  private readonly values: (string | null)[] = [];
  private readonly ends: Uint32Array;
  private readonly interned = new Map<string, string>();
  private docs = 0;

  constructor(count: number) {
    this.ends = new Uint32Array(count);
  }

  add(name: string, value: string | null): void {
    this.names.push(this.intern(name));
    this.values.push(value === null ? null : this.intern(value));
  }

  /** Closes the current doc's pairs. */
  end(): void {
    this.ends[this.docs++] = this.names.length;
  }

  build(): PairColumn {
    return new PairColumn(this.names, this.values, this.ends);
  }

  private intern(text: string): string {
    const known = this.interned.get(text);
    if (known !== undefined) return known;
    this.interned.set(text, text);
    return text;
  }
}

type Located = { location?: { lat?: number | null; lng?: number | null } | null };

class PlaceBuilder {
  private readonly coordinates: number[] = [];
  private readonly ends: Uint32Array;
  private docs = 0;

  constructor(count: number) {
    this.ends = new Uint32Array(count);
  }

  addAll(entries: Located[]): void {
    for (const { location } of entries)
      if (location?.lat != null && location.lng != null)
        this.coordinates.push(location.lat, location.lng);
    this.end();
  }

  end(): void {
    this.ends[this.docs++] = this.coordinates.length;
  }

  build(): PlaceColumn {
    return new PlaceColumn(Float64Array.from(this.coordinates), this.ends);
  }
}

/** The parts of each entry, one entry a line, so a keyword never spans two entries. */
function sectionText(entries: (string | null | undefined)[][]): string {
  let text = '';
  for (let e = 0; e < entries.length; e++) {
    if (e > 0) text += '\n';
    let first = true;
    for (const part of entries[e] as (string | null | undefined)[]) {
      if (!part) continue;
      text += first ? part : ` ${part}`;
      first = false;
    }
  }
  return text;
}

function lowerValue(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value).toLowerCase();
}
