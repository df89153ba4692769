import { DocSet, NO_DOCS } from '../engine/doc-set.ts';
import { unionSorted } from '../engine/int-lists.ts';
import { namedSet } from '../engine/postings.ts';
import type { Collection } from '../store/store.ts';
import type { ItemFilter } from './params.ts';
import type { Filters } from './requests.ts';

/** What the indexes make of a query's filters. */
export type IndexedFilters = {
  /** Docs each indexed filter allows (keywords, skills, languages, tag groups): all must pass. */
  required: DocSet[];
  /** Lowercased keywords whose candidates may not all contain them: checked on the text. */
  unsure: string[];
  /** Docs any excluded tag names. */
  excluded: DocSet[];
};

/** The posting lists the filters name, so that only docs in all of them need testing. */
export function indexedFilters(collection: Collection, filters: Filters): IndexedFilters {
  const { postings, vocabulary } = collection;
  const required: DocSet[] = [];
  const unsure: string[] = [];
  for (const lowered of rarestFirst(collection, filters.keywords)) {
    const candidates = collection.text.candidates(lowered);
    if (candidates === null || !candidates.exact) unsure.push(lowered);
    if (candidates !== null) required.push(candidates.set);
    // A keyword no doc holds settles the search: the others are not looked up.
    if (candidates?.set.size === 0) return { required: [NO_DOCS], unsure, excluded: [] };
  }
  for (const skill of filters.skills ?? []) {
    const id = vocabulary.skills.find(skill.name.toLowerCase());
    required.push(postings.skills.get(id) ?? NO_DOCS);
  }
  for (const language of filters.languages ?? []) {
    const id = vocabulary.languages.find(language.name.toLowerCase());
    required.push(namedSet(postings.languages, postings.languageValues, id, language));
  }
  for (const group of filters.tagsIncluded ?? []) required.push(tagGroupSet(collection, group));
  const excluded = (filters.tagsExcluded ?? []).flat().map((tag) => tagSet(collection, tag));
  return { required, unsure, excluded };
}

/** The lowercased keywords, those that may match the fewest docs first. */
function rarestFirst(collection: Collection, keywords: string[] | undefined): string[] {
  if (keywords === undefined) return [];
  const lowered = keywords.map((k) => k.toLowerCase());
  if (lowered.length === 1) return lowered;
  const bound = new Map(lowered.map((k) => [k, collection.text.cost(k).docs]));
  return lowered.sort((a, b) => (bound.get(a) as number) - (bound.get(b) as number));
}

function tagSet(collection: Collection, tag: ItemFilter): DocSet {
  const { postings, vocabulary } = collection;
  const id = vocabulary.tags.find(tag.name.toLowerCase());
  return namedSet(postings.tags, postings.tagValues, id, tag);
}

/** The docs that carry at least one tag of the group. */
function tagGroupSet(collection: Collection, group: ItemFilter[]): DocSet {
  if (group.length === 1) return tagSet(collection, group[0] as ItemFilter);
  const count = collection.docs.length;
  const lists = group.map((tag) => tagSet(collection, tag).ids);
  return new DocSet(unionSorted(lists, count), count);
}
