import type { Kind } from '../store/kinds.ts';
import {
  gradingOperation,
  type Operation,
  scoringOperation,
  searchOperation,
} from './operations.ts';

export type Action = 'grading' | 'searching' | 'scoring';
export type Method = 'GET' | 'POST';
export type Resource = '/profiles' | '/profile' | '/jobs' | '/job';
export type RoutePath = `${Resource}/${Action}`;

/** One path of the API as a client may spell it, and what answers it. */
export type Route = {
  /** As spelled, e.g. the singular grading path of the SDKs. */
  path: RoutePath;
  /** Its first part. */
  resource: Resource;
  action: Action;
  /** The contract's path of its operation: the plural one for both grading spellings. */
  operationPath: RoutePath;
  kind: Kind;
  operation: Operation;
  methods: readonly Method[];
  /** A second spelling of another route's operation (the SDKs' singular grading paths). */
  alias: boolean;
};

const ACTIONS: Record<Action, { operation: Operation; methods: readonly Method[] }> = {
  grading: { operation: gradingOperation, methods: ['GET'] },
  searching: { operation: searchOperation, methods: ['GET', 'POST'] },
  scoring: { operation: scoringOperation, methods: ['GET', 'POST'] },
};

function route(resource: Resource, action: Action, kind: Kind, aliasOf?: Resource): Route {
  return {
    path: `${resource}/${action}`,
    resource,
    action,
    operationPath: `${aliasOf ?? resource}/${action}`,
    kind,
    ...ACTIONS[action],
    alias: aliasOf !== undefined,
  };
}

/**
 * Every route of the API, the one table that Hono's routes, the fast path, the 404 message, the
 * admin API's paths and the service worker read. The contract lists the same eight paths.
 */
export const ROUTES: readonly Route[] = [
  route('/profiles', 'grading', 'profile'),
  route('/profile', 'grading', 'profile', '/profiles'),
  route('/jobs', 'grading', 'job'),
  route('/job', 'grading', 'job', '/jobs'),
  route('/profiles', 'searching', 'profile'),
  route('/profiles', 'scoring', 'profile'),
  route('/jobs', 'searching', 'job'),
  route('/jobs', 'scoring', 'job'),
];

/** The resources, in the table's order. */
export const RESOURCES: readonly Resource[] = [...new Set(ROUTES.map((r) => r.resource))];

/** The resources that hold an operation of their own (not only aliases). */
export const MAIN_RESOURCES: readonly Resource[] = RESOURCES.filter((resource) =>
  ROUTES.some((r) => r.resource === resource && !r.alias),
);

/** The API's paths in words, each alias beside its operation: for a 404's message. */
export function routesInWords(): string {
  const words = ROUTES.filter((r) => !r.alias).map((r) => {
    const aliases = ROUTES.filter((a) => a.alias && a.operationPath === r.path);
    return aliases.length === 0
      ? r.path
      : `${r.path} (or ${aliases.map((a) => a.path).join(', ')})`;
  });
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The contract's grading path of a kind (the plural spelling). */
export function gradingPathOf(kind: Kind): RoutePath {
  const found = ROUTES.find((r) => r.kind === kind && r.action === 'grading' && !r.alias);
  if (found === undefined) throw new Error(`no grading route for ${kind}`);
  return found.path;
}
