import { type Answer, internal, invalid, missing, ok, unknown } from './answer.ts';
import {
  type Criteria,
  type Paging,
  readCriteria,
  readPaging,
  type Side,
  type SortBy,
} from './criteria.ts';
import type { Raw } from './decode.ts';
import { type Defects, tripsOnText } from './defects.ts';
import { jobPasses, jobText, kmTo, profilePasses, relevance } from './filters.ts';
import { type Reader, reader } from './params.ts';
import { pairOf, SCORERS, scoreOf } from './scores.ts';
import type { Job, Label, Place, Profile, Store } from './types.ts';

export type Context = { store: Store; defects: Defects };

type Item = Profile | Job;
type Scored = { item: Item; score: number | null };

/** The one job (profile scoring) or profile (job scoring) the items are scored against. */
const readAnchor = (r: Reader, side: Side) =>
  side === 'profiles'
    ? {
        container: r.key('board_key', 'board'),
        key: r.key('job_key', 'job'),
        reference: r.text('job_reference'),
        names: ['board_key', 'job_key', 'job_reference'] as const,
      }
    : {
        container: r.key('source_key', 'source'),
        key: r.key('profile_key', 'profile'),
        reference: r.text('profile_reference'),
        names: ['source_key', 'profile_key', 'profile_reference'] as const,
      };

const placesOf = (item: Item, sortBy: SortBy): Place[] => {
  if ('board_key' in item) return [item.location];
  if (sortBy === 'location_experience') return item.experiences.map((x) => x.location);
  if (sortBy === 'location_education') return item.educations.map((x) => x.location);
  return [item.info.location];
};

/** The number an item is ordered by: larger comes first in `desc`. */
const ranker = (paging: Paging, c: Criteria, scored: boolean) => {
  const point =
    paging.sortBy === 'location_experience'
      ? (c.experienceNear ?? c.near)
      : paging.sortBy === 'location_education'
        ? (c.educationNear ?? c.near)
        : c.near;
  const by =
    paging.sortBy.startsWith('location') && point === undefined ? 'created_at' : paging.sortBy;
  return ({ item, score }: Scored): number => {
    if (by === 'created_at') return Date.parse(item.created_at);
    if (by === 'updated_at') return Date.parse(item.updated_at);
    if (by === 'scoring' && scored) return score ?? 0;
    if (by === 'searching' || by === 'scoring')
      return relevance('board_key' in item ? jobText(item) : item.text, c.keywords);
    const places = placesOf(item, paging.sortBy);
    return point === undefined ? 0 : -Math.min(...places.map((place) => kmTo(point, place)));
  };
};

const sortAndPage = (list: Scored[], paging: Paging, c: Criteria, scored: boolean) => {
  const rank = ranker(paging, c, scored);
  const sign = paging.order === 'desc' ? -1 : 1;
  const ordered = list
    .map((entry) => ({ entry, value: rank(entry) }))
    .sort((a, b) =>
      a.value === b.value
        ? a.entry.item.key < b.entry.item.key
          ? -1
          : 1
        : sign * (a.value < b.value ? -1 : 1),
    )
    .map(({ entry }) => entry);
  const total = ordered.length;
  const maxPage = Math.max(1, Math.ceil(total / paging.limit));
  const page = Math.min(paging.page, maxPage);
  const start = paging.page > maxPage ? total : (page - 1) * paging.limit;
  const shown = ordered.slice(start, start + paging.limit);
  return { shown, meta: { page, maxPage, count: shown.length, total } };
};

type Anchor = ReturnType<typeof readAnchor>;

/** The scored-against item a scoring request names, or the 400 saying what names nothing. */
const findAnchor = (
  store: Store,
  side: Side,
  anchor: Anchor,
): { item: Item } | { answer: Answer } => {
  const [containerName, keyName, referenceName] = anchor.names;
  const held = side === 'profiles' ? store.boards : store.sources;
  if (!held.some((container) => container.key === anchor.container)) {
    const object = side === 'profiles' ? 'board' : 'source';
    return { answer: unknown(object, containerName, anchor.container ?? '') };
  }
  const candidates: Item[] = side === 'profiles' ? store.jobs : store.profiles;
  const item = candidates
    .filter((c) => ('board_key' in c ? c.board_key : c.source_key) === anchor.container)
    .filter((c) =>
      anchor.key !== undefined ? c.key === anchor.key : c.reference === anchor.reference,
    )[0];
  if (item !== undefined) return { item };
  const param = anchor.key !== undefined ? keyName : referenceName;
  const object = side === 'profiles' ? 'job' : 'profile';
  return { answer: unknown(object, param, anchor.key ?? anchor.reference ?? '') };
};

/**
 * The items of the containers asked for that pass every filter. The labels that count for
 * `stage`: on scoring those between the anchor and the item, on searching any of the item's.
 */
const filtered = (
  store: Store,
  side: Side,
  keys: string[],
  criteria: Criteria,
  anchor: Item | undefined,
): Item[] => {
  if (side === 'profiles')
    return store.profiles
      .filter((p) => keys.includes(p.source_key))
      .filter((p) => {
        const labels =
          anchor === undefined ? p.labels : p.labels.filter((l) => l.job_key === anchor.key);
        return profilePasses(criteria, p, labels);
      });
  const labels: Label[] =
    anchor !== undefined && 'labels' in anchor
      ? anchor.labels
      : store.profiles.flatMap((p) => p.labels);
  return store.jobs
    .filter((j) => keys.includes(j.board_key))
    .filter((j) =>
      jobPasses(
        criteria,
        j,
        labels.filter((l) => l.job_key === j.key),
      ),
    );
};

/** Searching (`scoring` false) or scoring of one side, from raw parameters. */
export const searchOrScore = (
  ctx: Context,
  side: Side,
  scoring: boolean,
  raw: Raw,
  origin: 'query' | 'body',
): Answer => {
  const { store, defects } = ctx;
  const r = reader(raw, origin);
  const containersName = side === 'profiles' ? 'source_keys' : 'board_keys';
  const containerKeys = r.keys(containersName, side === 'profiles' ? 'source' : 'board');
  const anchor = scoring ? readAnchor(r, side) : undefined;
  const algorithm = scoring ? r.text('algorithm_key') : undefined;
  const agent = scoring ? r.text('agent_key') : undefined;
  const useAlgorithm = scoring ? r.flag('use_algorithm') : undefined;
  const useAgent = scoring ? r.flag('use_agent') : undefined;
  const threshold = scoring ? r.number('score_threshold', 0, 1) : undefined;
  const criteria = readCriteria(r, defects);
  const paging = readPaging(
    r,
    {
      sortBy:
        side === 'profiles' && !scoring && defects.has('sort-updated-default')
          ? 'updated_at'
          : 'created_at',
      order: defects.has('order-asc-default') ? 'asc' : 'desc',
      page: 1,
      limit: side === 'jobs' && !scoring && defects.has('jobs-limit-20') ? 20 : 30,
    },
    defects,
  );
  if (tripsOnText(r.texts, defects)) return internal();
  const problems = [...r.problems];
  if (!r.has(containersName)) problems.push(missing(containersName, ', as a JSON array of keys'));
  if (anchor !== undefined) {
    const [container, key, reference] = anchor.names;
    if (!r.has(container)) problems.push(missing(container));
    if (!r.has(key) && !r.has(reference)) problems.push(missing(key, ` (or ${reference})`));
  }
  if (scoring && !r.has('algorithm_key') && defects.has('scoring-requires-algorithm-key'))
    problems.push(missing('algorithm_key'));
  if (problems.length > 0 || containerKeys === undefined) return invalid(problems);

  const containers = side === 'profiles' ? store.sources : store.boards;
  const lost = containerKeys.find((key) => !containers.some((found) => found.key === key));
  if (lost !== undefined)
    return unknown(side === 'profiles' ? 'source' : 'board', containersName, lost);

  const scorers: readonly string[] = SCORERS[side];
  const algorithmName =
    algorithm === undefined && agent !== undefined ? 'agent_key' : 'algorithm_key';
  const chosen = algorithm ?? agent ?? 'default';
  if (scoring && !scorers.includes(chosen)) return unknown('algorithm', algorithmName, chosen);

  const found = anchor === undefined ? undefined : findAnchor(store, side, anchor);
  if (found !== undefined && 'answer' in found) return found.answer;
  const anchorItem = found?.item;
  const passing = filtered(store, side, containerKeys, criteria, anchorItem);

  const use = useAlgorithm ?? useAgent ?? !defects.has('use-algorithm-default-0');
  const withScores = scoring && use && anchorItem !== undefined;
  const scoreFor = (item: Item): number | null => {
    if (!withScores || anchorItem === undefined) return null;
    return 'board_key' in item
      ? scoreOf(chosen, anchorItem as Profile, item)
      : scoreOf(chosen, item, anchorItem as Job);
  };
  const scored = passing
    .map((item) => ({ item, score: scoreFor(item) }))
    .filter(({ score }) => threshold === undefined || score === null || score / 10000 >= threshold);
  const { shown, meta } = sortAndPage(scored, paging, criteria, withScores);
  const items = shown.map(({ item }) => item);
  const title = side === 'profiles' ? 'Profiles' : 'Jobs';
  if (!scoring) return ok(`${title} searching results.`, { [side]: items }, meta);
  const predictions = withScores ? shown.map(({ score }) => pairOf(score ?? 0)) : [];
  return ok(`${title} scoring results.`, { [side]: items, predictions }, meta);
};
