import type { Collection } from '../store/store.ts';
import type { Filters } from './requests.ts';
import type { ParamError } from './result.ts';

/**
 * The work one search may do, in units of about a nanosecond of the bench machine: 0.4 s. A
 * search over it is answered 400, naming the parameters that make the work, before that work is
 * done. The estimate is a function of the request and the data only (never of what is cached),
 * so a request gets the same answer every time.
 */
export const WORK_BUDGET = 400_000_000;

/** Units per posting entry read to look a keyword up, per membership test, per text character. */
const UNITS = { posting: 20, test: 3, character: 2 } as const;

/**
 * The refusal of a search whose work would be over the budget, or undefined. Counted before any
 * keyword is looked up: the lookups (every posting entry of every token holding a word of a
 * keyword), then the docs to walk (at most the fewest a keyword or the distance allows), each
 * tested against every indexed filter and read for each keyword the index cannot settle.
 */
export function overBudget(
  collection: Collection,
  filters: Filters,
  walked: number,
): ParamError[] | undefined {
  const { keywords } = filters;
  let postings = 0;
  let docs = walked;
  let unsure = 0;
  for (const keyword of keywords ?? []) {
    const cost = collection.text.cost(keyword.toLowerCase());
    postings += cost.postings;
    docs = Math.min(docs, cost.docs);
    if (!cost.exact) unsure++;
  }
  // A keyword no doc holds: nothing to look up past it, nothing to walk.
  if (docs === 0) return undefined;
  const lookUp = postings * UNITS.posting;
  if (lookUp > WORK_BUDGET) return refusal(filters, lookUp, LOOK_UP);
  const tests =
    (keywords?.length ?? 0) +
    (filters.skills?.length ?? 0) +
    (filters.languages?.length ?? 0) +
    (filters.tagsIncluded?.length ?? 0) +
    (filters.tagsExcluded?.flat().length ?? 0);
  const checked =
    unsure +
    (filters.summaryKeywords?.length ?? 0) +
    (filters.experienceKeywords?.length ?? 0) +
    (filters.educationKeywords?.length ?? 0);
  const perDoc = (tests + 1) * UNITS.test + checked * meanTextLength(collection) * UNITS.character;
  const work = lookUp + docs * perDoc;
  return work > WORK_BUDGET ? refusal(filters, work, WALK) : undefined;
}

const LOOK_UP = 'matches parts of too many words to look them all up';
const WALK = 'has keywords the index cannot settle checked on too many texts';

/** The 400 of a search over the budget, for each keyword parameter it holds. */
function refusal(filters: Filters, work: number, what: string): ParamError[] {
  const params = [
    filters.keywords && 'text_keywords',
    filters.summaryKeywords && 'summary_keywords',
    filters.experienceKeywords && 'experience_keywords',
    filters.educationKeywords && 'education_keywords',
  ].filter((name): name is string => typeof name === 'string');
  const share = `${(work / WORK_BUDGET).toFixed(1)} times what one request may do`;
  return (params.length > 0 ? params : ['text_keywords']).map((param) => ({
    param,
    message: `${param}: this search ${what}, ${share}. Send fewer keywords, keywords of whole words rather than single letters or common fragments, or a filter that narrows the search (skills, location, dates)`,
  }));
}

const MEAN_LENGTH = new WeakMap<Collection, number>();

function meanTextLength(collection: Collection): number {
  let mean = MEAN_LENGTH.get(collection);
  if (mean === undefined) {
    const { text } = collection.columns;
    let total = 0;
    for (const t of text) total += t.length;
    mean = text.length === 0 ? 0 : total / text.length;
    MEAN_LENGTH.set(collection, mean);
  }
  return mean;
}
