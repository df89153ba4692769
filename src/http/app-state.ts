import { createStore, type Store } from '../store/store.ts';
import type { StoreData } from '../store/types.ts';
import type { AnswerCheck } from './admin/scenario-body.ts';
import type { Steering } from './admin/steering.ts';
import type { Limits } from './limits.ts';

/**
 * What one app is made with and serves now, in one object: the routes read the store through it,
 * and a server that answers some requests without Hono (`src/node/`) reads the rest.
 */
export type AppState = {
  /** The store answering now; replaced whole by `replaceData`. */
  readonly store: Store;
  /** Counts replacements, so that cached answers of older data are never served. */
  readonly generation: number;
  /** Serves other data from now on (fixtures reloaded from disk); answers in flight finish on the old. */
  replaceData(data: StoreData): void;
  /** `replaceData` with the store already built (by `storeSteps`, a step at a time). */
  replaceStore(store: Store): void;
  /** Where request lines go, or null when silent. */
  readonly log: ((line: string) => void) | null;
  /** The same request always gets the same answer (no random failures or delays configured). */
  readonly deterministic: boolean;
  /** The scenarios in force and the journal of requests (also served under `/_mock/`). */
  readonly steering: Steering;
  /** The prefix the API is served under: `/` or e.g. `/v1`. */
  readonly basePath: string;
  readonly limits: Limits;
  /** The key every API request must carry in `X-API-KEY`, when set. */
  readonly apiKey: string | undefined;
  /** Judges the bodies scenarios make by the contract, when the app was given a judge. */
  readonly checkAnswer: AnswerCheck | undefined;
};

export type StateSettings = Pick<
  AppState,
  'log' | 'deterministic' | 'steering' | 'basePath' | 'limits' | 'apiKey' | 'checkAnswer'
>;

/** The state of a new app: its store built from `data`, generation 0. */
export function createAppState(data: StoreData, settings: StateSettings): AppState {
  let store = createStore(data);
  let generation = 0;
  return {
    get store() {
      return store;
    },
    get generation() {
      return generation;
    },
    replaceData(next) {
      store = createStore(next);
      generation++;
    },
    replaceStore(next) {
      store = next;
      generation++;
    },
    ...settings,
  };
}
