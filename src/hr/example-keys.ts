import type { Store } from '../store/store.ts';
import type { Result } from './result.ts';
import { EXAMPLE_KEY } from './scalar-reader.ts';

/**
 * A failed parse whose messages suggest a key this mock has in place of the reader's stand-in
 * (which knows no store): a source's for a profile parameter, a board's for a job one. Made
 * only for a failure, so a request that reads well costs nothing.
 */
export function withStoreKeys<T>(result: Result<T>, store: Store): Result<T> {
  if (result.ok || !result.errors.some((e) => e.message.includes(EXAMPLE_KEY))) return result;
  const errors = result.errors.map((error) => {
    const collection = /board|job/.test(error.param) ? store.job : store.profile;
    const [key] = collection.containers.keys();
    return key === undefined
      ? error
      : { param: error.param, message: error.message.replaceAll(EXAMPLE_KEY, key) };
  });
  return { ok: false, errors };
}
