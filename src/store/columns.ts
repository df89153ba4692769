import { cosLatitude, writeUnitVector } from '../engine/geo.ts';
import { type Ragged, RaggedBuilder, sortedUnique } from '../engine/int-lists.ts';
import { Interner } from '../engine/interner.ts';
import type { DocFeatures } from './doc-features.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * What search and scoring read of every doc, one typed array per feature (NaN or -1 for none),
 * so 100,000 docs cost a few flat buffers instead of 100,000 objects of sets and maps.
 */
export type Columns = {
  /** Ids of `containerIds`. */
  container: Int32Array;
  containerIds: Interner;
  created: Float64Array;
  updated: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  /** cos(lat), for distances without a cosine per doc and query. */
  cosLat: Float64Array;
  /** The unit vector of each doc's place, x y z side by side (NaN off the globe): `chordA`. */
  unit: Float64Array;
  /** Profiles: years of experience. Jobs: the fewest years the job asks for. */
  years: Float64Array;
  /** Jobs: the most years the job asks for. */
  yearsMax: Float64Array;
  family: Int32Array;
  seniority: Int8Array;
  /** Sorted skill ids, hard and soft. */
  skills: Ragged;
  /** Skill ids in the object's order, repeats kept. */
  hardSkills: Ragged;
  softSkills: Ragged;
  /** Sorted language ids. */
  languages: Ragged;
  /** Lowercased text. */
  text: string[];
};

/** A doc's names as ids, for the posting lists. */
export type DocIds = {
  skills: number[];
  languages: Map<number, string | null>;
  tags: Map<number, Set<string | null>>;
};

export class ColumnsBuilder {
  readonly #vocabulary: Vocabulary;
  readonly #containerIds = new Interner();
  readonly #numbers;
  readonly #text: string[];
  readonly #skills: RaggedBuilder;
  readonly #hardSkills: RaggedBuilder;
  readonly #softSkills: RaggedBuilder;
  readonly #languages: RaggedBuilder;

  constructor(count: number, vocabulary: Vocabulary) {
    this.#vocabulary = vocabulary;
    this.#numbers = {
      container: new Int32Array(count),
      created: new Float64Array(count),
      updated: new Float64Array(count),
      lat: new Float64Array(count),
      lng: new Float64Array(count),
      cosLat: new Float64Array(count),
      unit: new Float64Array(3 * count),
      years: new Float64Array(count),
      yearsMax: new Float64Array(count),
      family: new Int32Array(count),
      seniority: new Int8Array(count),
    };
    this.#text = new Array<string>(count);
    this.#skills = new RaggedBuilder(count);
    this.#hardSkills = new RaggedBuilder(count);
    this.#softSkills = new RaggedBuilder(count);
    this.#languages = new RaggedBuilder(count);
  }

  /** Fills row `i` (rows in order, from 0) and gives the doc's names as ids. */
  add(i: number, f: DocFeatures): DocIds {
    const { skills, languages, tags, families } = this.#vocabulary;
    const n = this.#numbers;
    n.container[i] = this.#containerIds.intern(f.containerKey);
    n.created[i] = f.created;
    n.updated[i] = f.updated;
    n.lat[i] = f.lat ?? Number.NaN;
    n.lng[i] = f.lng ?? Number.NaN;
    n.cosLat[i] = cosLatitude(n.lat[i] as number);
    writeUnitVector(n.lat[i] as number, n.lng[i] as number, n.unit, 3 * i);
    n.years[i] = f.years ?? Number.NaN;
    n.yearsMax[i] = f.yearsMax ?? Number.NaN;
    n.family[i] = f.family === null ? -1 : families.intern(f.family);
    n.seniority[i] = f.seniority ?? -1;
    this.#text[i] = f.text;

    const hard = f.hardSkills.map((name) => skills.intern(name));
    const soft = f.softSkills.map((name) => skills.intern(name));
    const skillSet = sortedUnique([...hard, ...soft]);
    const languageValues = new Map(
      [...f.languages].map(([name, value]) => [languages.intern(name), value]),
    );
    this.#skills.add(skillSet);
    this.#hardSkills.add(hard);
    this.#softSkills.add(soft);
    this.#languages.add(sortedUnique([...languageValues.keys()]));
    return {
      skills: skillSet,
      languages: languageValues,
      tags: new Map([...f.tags].map(([name, values]) => [tags.intern(name), values])),
    };
  }

  build(): Columns {
    return {
      ...this.#numbers,
      containerIds: this.#containerIds,
      text: this.#text,
      skills: this.#skills.build(),
      hardSkills: this.#hardSkills.build(),
      softSkills: this.#softSkills.build(),
      languages: this.#languages.build(),
    };
  }
}
