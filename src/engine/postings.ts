import { DocSet, NO_DOCS } from './doc-set.ts';

/**
 * For each skill, language and tag id, the docs that have it, and for languages and tags the
 * docs with each value too: a filter on them reads one list instead of testing every doc.
 */
export type Postings = {
  skills: Map<number, DocSet>;
  languages: Map<number, DocSet>;
  languageValues: Map<number, Map<string, DocSet>>;
  tags: Map<number, DocSet>;
  tagValues: Map<number, Map<string, DocSet>>;
};

type Lists = Map<number, number[]>;
type ValueLists = Map<number, Map<string, number[]>>;

export class PostingsBuilder {
  readonly #skills: Lists = new Map();
  readonly #languages: Lists = new Map();
  readonly #languageValues: ValueLists = new Map();
  readonly #tags: Lists = new Map();
  readonly #tagValues: ValueLists = new Map();

  /** Docs must be added in increasing index order, so that every list comes out sorted. */
  add(
    index: number,
    skills: readonly number[],
    languages: ReadonlyMap<number, string | null>,
    tags: ReadonlyMap<number, ReadonlySet<string | null>>,
  ): void {
    for (const id of skills) listOf(this.#skills, id).push(index);
    for (const [id, value] of languages) {
      listOf(this.#languages, id).push(index);
      if (value !== null) valueListOf(this.#languageValues, id, value).push(index);
    }
    for (const [id, values] of tags) {
      listOf(this.#tags, id).push(index);
      for (const value of values) {
        if (value !== null) valueListOf(this.#tagValues, id, value).push(index);
      }
    }
  }

  build(universe: number): Postings {
    return {
      skills: sets(this.#skills, universe),
      languages: sets(this.#languages, universe),
      languageValues: valueSets(this.#languageValues, universe),
      tags: sets(this.#tags, universe),
      tagValues: valueSets(this.#tagValues, universe),
    };
  }
}

/**
 * The docs that have a named item: any value when the filter has none, else that value, ignoring
 * case (`id` is the name's id, -1 for a name no doc has).
 */
export function namedSet(
  byName: Map<number, DocSet>,
  byValue: Map<number, Map<string, DocSet>>,
  id: number,
  filter: { readonly value: string | null },
): DocSet {
  if (filter.value === null) return byName.get(id) ?? NO_DOCS;
  return byValue.get(id)?.get(filter.value.toLowerCase()) ?? NO_DOCS;
}

function listOf(lists: Lists, id: number): number[] {
  let list = lists.get(id);
  if (list === undefined) {
    list = [];
    lists.set(id, list);
  }
  return list;
}

function valueListOf(lists: ValueLists, id: number, value: string): number[] {
  let values = lists.get(id);
  if (values === undefined) {
    values = new Map();
    lists.set(id, values);
  }
  let list = values.get(value);
  if (list === undefined) {
    list = [];
    values.set(value, list);
  }
  return list;
}

function sets<K>(lists: Map<K, number[]>, universe: number): Map<K, DocSet> {
  return new Map([...lists].map(([id, list]) => [id, new DocSet(Int32Array.from(list), universe)]));
}

function valueSets(lists: ValueLists, universe: number): Map<number, Map<string, DocSet>> {
  return new Map([...lists].map(([id, values]) => [id, sets(values, universe)]));
}
