import type { Hono } from 'hono';

/**
 * The browser build's stand-in for `src/http/docs-routes.ts`, which serves Swagger UI's files
 * from node_modules: a page has no node_modules, so `/docs` is left to the 404 of any unknown path.
 */
export function docsRoutes(_app: Hono, _basePath: string, _target: unknown): void {}
