import { type Answer, internal, invalid, missing, ok, unknown } from './answer.ts';
import type { Side } from './criteria.ts';
import type { Raw } from './decode.ts';
import { tripsOnText } from './defects.ts';
import { reader } from './params.ts';
import { GRADERS, nothingToGrade, pairOf, scoreOf } from './scores.ts';
import type { Context } from './searching.ts';
import type { Job, Profile } from './types.ts';

type Names = {
  anchorContainer: string;
  anchorKey: string;
  anchorReference: string;
  ids: string;
  container: string;
  key: string;
  reference: string;
  full: string;
};

/** Parameter names by graded side: profiles are graded for a job, jobs for a profile. */
const NAMES: Record<Side, Names> = {
  profiles: {
    anchorContainer: 'board_key',
    anchorKey: 'job_key',
    anchorReference: 'job_reference',
    ids: 'profile_ids',
    container: 'source_key',
    key: 'profile_key',
    reference: 'profile_reference',
    full: 'return_profile',
  },
  jobs: {
    anchorContainer: 'source_key',
    anchorKey: 'profile_key',
    anchorReference: 'profile_reference',
    ids: 'job_ids',
    container: 'board_key',
    key: 'job_key',
    reference: 'job_reference',
    full: 'return_job',
  },
};

const minimalProfile = (p: Profile) => ({
  key: p.key,
  reference: p.reference,
  source_key: p.source_key,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

const minimalJob = (j: Job) => ({
  key: j.key,
  reference: j.reference,
  board_key: j.board_key,
  created_at: j.created_at,
  updated_at: j.updated_at,
});

/** Grades one job against profiles (`side` profiles) or one profile against jobs (`side` jobs). */
export const grade = (ctx: Context, side: Side, raw: Raw): Answer => {
  const { store, defects } = ctx;
  const n = NAMES[side];
  const anchorSide = side === 'profiles' ? 'job' : 'profile';
  const itemSide = side === 'profiles' ? 'profile' : 'job';
  const anchorHolder = side === 'profiles' ? 'board' : 'source';
  const itemHolder = side === 'profiles' ? 'source' : 'board';
  const r = reader(raw, 'query');
  const algorithm = r.text('algorithm_key');
  const anchorContainer = r.key(n.anchorContainer, anchorHolder);
  const anchorKey = r.key(n.anchorKey, anchorSide);
  const anchorReference = r.text(n.anchorReference);
  const ids = r.ids(n.ids, n.container, n.key);
  const singleNames = [n.container, n.key, n.reference];
  const single = !r.has(n.ids) && singleNames.some((name) => r.has(name));
  const container = single ? r.key(n.container, itemHolder) : undefined;
  const key = single ? r.key(n.key, itemSide) : undefined;
  const reference = single ? r.text(n.reference) : undefined;
  const full = r.flag(n.full) ?? false;
  if (tripsOnText(r.texts, defects)) return internal();

  const problems = [...r.problems];
  if (!r.has('algorithm_key')) problems.push(missing('algorithm_key'));
  if (!r.has(n.anchorContainer)) problems.push(missing(n.anchorContainer));
  if (!r.has(n.anchorKey) && !r.has(n.anchorReference))
    problems.push(missing(n.anchorKey, ` (or ${n.anchorReference})`));
  if (r.has(n.ids) && singleNames.some((name) => r.has(name)))
    problems.push({
      param: n.ids,
      message: `send either ${n.ids} or ${n.container} with ${n.key}, not both`,
    });
  if (!r.has(n.ids) && !single)
    problems.push(missing(n.ids, ` (or ${n.container} with ${n.key} or ${n.reference})`));
  if (single && !r.has(n.container)) problems.push(missing(n.container));
  if (single && !r.has(n.key) && !r.has(n.reference))
    problems.push(missing(n.key, ` (or ${n.reference})`));
  if (single && r.has(n.key) && r.has(n.reference))
    problems.push({ param: n.key, message: `send either ${n.key} or ${n.reference}, not both` });
  if (single && defects.has('single-grading-refused'))
    problems.push({
      param: n.ids,
      message: `grading one ${itemSide} by ${n.key} is not supported: use ${n.ids}`,
    });
  if (problems.length > 0) return invalid(problems);

  const graders: readonly string[] = GRADERS[side];
  if (algorithm === undefined || !graders.includes(algorithm))
    return unknown('algorithm', 'algorithm_key', algorithm ?? '');
  const anchorHolders = side === 'profiles' ? store.boards : store.sources;
  if (!anchorHolders.some((holder) => holder.key === anchorContainer))
    return unknown(anchorHolder, n.anchorContainer, anchorContainer ?? '');
  const anchors: (Profile | Job)[] = side === 'profiles' ? store.jobs : store.profiles;
  const anchor = anchors
    .filter((item) => ('board_key' in item ? item.board_key : item.source_key) === anchorContainer)
    .filter((item) =>
      anchorKey !== undefined ? item.key === anchorKey : item.reference === anchorReference,
    )[0];
  if (anchor === undefined)
    return unknown(
      anchorSide,
      anchorKey !== undefined ? n.anchorKey : n.anchorReference,
      anchorKey ?? anchorReference ?? '',
    );

  const items: (Profile | Job)[] = side === 'profiles' ? store.profiles : store.jobs;
  const holderOf = (item: Profile | Job) =>
    'board_key' in item ? item.board_key : item.source_key;
  const itemHolders = side === 'profiles' ? store.sources : store.boards;
  if (single && !itemHolders.some((holder) => holder.key === container))
    return unknown(itemHolder, n.container, container ?? '');
  const wanted = single
    ? [
        items
          .filter((item) => holderOf(item) === container)
          .filter((item) =>
            key !== undefined ? item.key === key : item.reference === reference,
          )[0],
      ]
    : (ids ?? []).map(
        (id) => items.filter((item) => holderOf(item) === id.container && item.key === id.item)[0],
      );
  if (single && wanted[0] === undefined)
    return unknown(itemSide, key !== undefined ? n.key : n.reference, key ?? reference ?? '');

  const graded = wanted.map((item, i) => {
    if (item === undefined) {
      const id = ids?.[i];
      return {
        shown: null,
        score: null,
        error: `No ${itemSide} ${id?.item} in ${itemHolder} ${id?.container}.`,
      };
    }
    const profile = (side === 'profiles' ? item : anchor) as Profile;
    const job = (side === 'profiles' ? anchor : item) as Job;
    const shown = full ? item : 'board_key' in item ? minimalJob(item) : minimalProfile(item);
    const reason = nothingToGrade(profile);
    return reason !== null
      ? { shown, score: null, error: reason }
      : { shown, score: scoreOf(algorithm, profile, job), error: null };
  });
  const data: Record<string, unknown> = {
    [side]: graded.map((entry) => entry.shown),
    scores: graded.map((entry) => (entry.score === null ? null : pairOf(entry.score))),
    errors: graded.map((entry) => entry.error),
  };
  if (single) data.score = graded[0]?.score == null ? null : graded[0].score / 10000;
  return ok('Grading finished.', data);
};
