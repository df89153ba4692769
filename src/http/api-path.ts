/** A request's path as the contract names it: without the base path (`/v1/jobs/…` → `/jobs/…`). */
export function apiPath(pathname: string): string {
  return pathname.replace(/^.*?(\/(profiles?|jobs?)\/)/, '$1');
}
