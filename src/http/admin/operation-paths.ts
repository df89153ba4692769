import { ROUTES } from '../../hr/routes.ts';
import { apiPath } from '../api-path.ts';
import { contractDoc } from '../contract-doc.ts';

/** Each API path, as a client may spell it, to the one its scenarios are kept under. */
const CANONICAL: ReadonlyMap<string, string> = new Map(
  ROUTES.map((r) => [r.path, r.operationPath]),
);

export const API_PATHS = ROUTES.map((r) => r.path);

/**
 * A request's or a scenario's path (base path or not, query or not) as the operation it reaches:
 * the singular grading path under a base path, with a query, gives the plural one; undefined
 * outside the API.
 */
export function operationPath(url: string): string | undefined {
  const mark = url.indexOf('?');
  const pathname = (mark < 0 ? url : url.slice(0, mark)).replace(/\/{2,}/g, '/');
  return CANONICAL.get(apiPath(pathname));
}

/** The path as the client spelled it, without the base path or query. */
export function spelledPath(url: string): string {
  const mark = url.indexOf('?');
  return apiPath((mark < 0 ? url : url.slice(0, mark)).replace(/\/{2,}/g, '/'));
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
