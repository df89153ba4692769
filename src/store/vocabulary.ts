import { Interner } from '../engine/interner.ts';

/**
 * Names shared by profiles and jobs, so that a profile's skill and a job's skill compare as
 * numbers.
 */
export type Vocabulary = {
  skills: Interner;
  languages: Interner;
  tags: Interner;
  families: Interner;
};

export function createVocabulary(): Vocabulary {
  return {
    skills: new Interner(),
    languages: new Interner(),
    tags: new Interner(),
    families: new Interner(),
  };
}
