import { contractDoc } from '../contract-doc.ts';
import { contractPath } from '../contract-path.ts';

/** Each API path, as a client may spell it, to the one its scenarios are kept under. */
const CANONICAL: Record<string, string> = {
  '/profiles/grading': '/profiles/grading',
  '/profile/grading': '/profiles/grading',
  '/jobs/grading': '/jobs/grading',
  '/job/grading': '/jobs/grading',
  '/profiles/searching': '/profiles/searching',
  '/profiles/scoring': '/profiles/scoring',
  '/jobs/searching': '/jobs/searching',
  '/jobs/scoring': '/jobs/scoring',
};

export const API_PATHS = Object.keys(CANONICAL);

/**
 * A request's or a scenario's path (base path or not, query or not) as the operation it reaches:
 * `/v1/profile/grading?x` → `/profiles/grading`; undefined outside the API.
 */
export function operationPath(url: string): string | undefined {
  const mark = url.indexOf('?');
  const pathname = (mark < 0 ? url : url.slice(0, mark)).replace(/\/{2,}/g, '/');
  return CANONICAL[contractPath(pathname)];
}

/** The path as the client spelled it, without the base path or query: `/profile/grading`. */
export function spelledPath(url: string): string {
  const mark = url.indexOf('?');
  return contractPath((mark < 0 ? url : url.slice(0, mark)).replace(/\/{2,}/g, '/'));
}

/** Whether the path's operation is a grading one (GET only, `ungradable` example). */
export function isGrading(path: string): boolean {
  return path.endsWith('/grading');
}

/** The contract's operationId of a method on a path as spelled, or null outside the contract. */
export function operationId(method: string, path: string): string | null {
  const item = contractDoc().paths[path] as
    | Record<string, { operationId?: string } | undefined>
    | undefined;
  return item?.[method.toLowerCase()]?.operationId ?? null;
}
