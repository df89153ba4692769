import { DEFAULT_JSON_DEPTH } from './request-params.ts';

export type Limits = {
  /** Largest request body, in bytes (413 above). */
  bodyBytes: number;
  /** Longest path and query, in bytes (414 above). */
  urlBytes: number;
  /** Deepest JSON body nesting (400 above). */
  jsonDepth: number;
};

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 1024 * 1024,
  urlBytes: 16 * 1024,
  jsonDepth: DEFAULT_JSON_DEPTH,
};
