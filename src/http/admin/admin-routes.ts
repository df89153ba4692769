import type { Context, Hono } from 'hono';
import { ApiError } from '../api-error.ts';
import { type AdminAccess, adminGuard } from './admin-access.ts';
import { adminDoc } from './admin-doc.ts';
import { checkedScenario } from './controls.ts';
import type { JournalFilter } from './journal.ts';
import type { Steering } from './steering.ts';
import { mockFeed, uiRoutes } from './ui-routes.ts';

export type AdminOptions = {
  /** Every admin call needs `X-API-KEY` with this value when set. */
  apiKey: string | undefined;
  /** Who may call it besides the same origin on a loopback name (see `adminGuard`). */
  access: AdminAccess;
  /** Deepest nesting of a scenario's `params` (the app's JSON depth limit). */
  maxDepth: number;
  /** Where the API answers on this port (for the control page's curl lines). */
  basePath: string;
};

/**
 * The admin API (contract/admin.yaml, served at /_mock/openapi.json), at the root of the mock's port whatever the base path:
 * scenarios to steer the next answers, the journal of requests, and a reset of both. Same-origin
 * only, behind the API key when one is set.
 */
export function adminRoutes(app: Hono, steering: Steering, options: AdminOptions): void {
  const { scenarios, journal } = steering;
  // `/_mock/*` matches `/_mock` too; `/_mock/target` is the API's, and the guard lets it by.
  app.use('/_mock/*', adminGuard(options.access, options.apiKey));

  app.get('/_mock/openapi.json', (c) => c.json(adminDoc()));
  uiRoutes(app, mockFeed(steering, options.basePath), steering.hangs);
  app.post('/_mock/scenarios', async (c) => {
    const scenario = scenarios.add(checkedScenario(await jsonBody(c), options.maxDepth));
    return c.json({ code: 201, message: 'Scenario added.', data: scenario }, 201);
  });
  app.get('/_mock/scenarios', (c) =>
    c.json({ code: 200, message: 'The scenarios in force, oldest first.', data: scenarios.list() }),
  );
  app.delete('/_mock/scenarios', (c) => {
    scenarios.clear();
    return c.json({ code: 200, message: 'Every scenario removed.', data: [] });
  });
  app.delete('/_mock/scenarios/:id', (c) => {
    const id = c.req.param('id');
    if (!scenarios.remove(id))
      throw new ApiError(
        404,
        `No scenario ${JSON.stringify(id)}: GET /_mock/scenarios lists the ids in force (a scenario with times is gone once spent).`,
      );
    return c.json({ code: 200, message: `Scenario ${id} removed.`, data: scenarios.list() });
  });
  app.get('/_mock/requests', (c) => {
    const filter = journalFilter(c);
    return c.json({
      code: 200,
      message: 'The requests received, oldest first.',
      data: journal.list(filter),
      meta: journal.meta,
    });
  });
  app.delete('/_mock/requests', (c) => {
    journal.clear();
    return c.json({ code: 200, message: 'The journal is empty.', data: [] });
  });
  app.post('/_mock/reset', (c) => {
    scenarios.clear();
    journal.clear();
    return c.json({ code: 200, message: 'Every scenario removed and the journal emptied.' });
  });
}

async function jsonBody(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text()) as unknown;
  } catch {
    throw new ApiError(400, 'Malformed JSON body: send one scenario as a JSON object.', {
      errors: [{ param: 'body', message: 'the body is not valid JSON' }],
    });
  }
}

function journalFilter(c: Context): JournalFilter {
  const filter: JournalFilter = {};
  const path = c.req.query('path');
  const method = c.req.query('method');
  const status = c.req.query('status');
  if (path !== undefined) filter.path = path;
  if (method !== undefined) filter.method = method;
  if (status !== undefined) {
    if (!/^\d{3}$/.test(status))
      throw new ApiError(400, `Invalid filter: status must be a 3-digit status, got "${status}".`, {
        errors: [{ param: 'status', message: `a 3-digit status, e.g. 200, got "${status}"` }],
      });
    filter.status = Number(status);
  }
  return filter;
}
