import type { Kind } from '../store/kinds.ts';
import type { Doc, Store } from '../store/store.ts';
import { matchScorer } from './match.ts';

/** The scores of docs of `kind` against `target`, one object of the other kind. */
export function scorerAgainst(
  store: Store,
  kind: Kind,
  target: Doc,
  algorithmKey: string,
): (index: number) => number {
  const scorer = matchScorer(store.profile, store.job, algorithmKey);
  return kind === 'profile'
    ? (index) => scorer(index, target.index)
    : (index) => scorer(target.index, index);
}

/**
 * Like `scorerAgainst`, remembering each score in a per-target array: the next query against
 * the same object scores only the docs it has not met yet.
 */
export function scoresAgainst(
  store: Store,
  kind: Kind,
  target: Doc,
  algorithmKey: string,
): (index: number) => number {
  const collection = store[kind];
  const known = collection.scores.getOr(`${target.index}|${algorithmKey}`, () =>
    new Float64Array(collection.docs.length).fill(Number.NaN),
  );
  const score = scorerAgainst(store, kind, target, algorithmKey);
  return (index) => {
    let value = known[index] as number;
    if (Number.isNaN(value)) {
      value = score(index);
      known[index] = value;
    }
    return value;
  };
}
