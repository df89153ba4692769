import type { Context, Hono } from 'hono';
import { UI_CSS, UI_HTML, UI_SCRIPT } from '../../generated/ui-page.ts';
import { ApiError } from '../api-error.ts';
import { EXAMPLES } from '../prefer.ts';
import { FEED_LIMITS, FeedCount, type FeedSource, liveFeed } from './live-feed.ts';
import { API_PATHS } from './operation-paths.ts';
import type { Steering } from './steering.ts';

/**
 * The page's own rules: its script and style from this origin only, no frame (a Reset button
 * under another site's page would be clickjacking), nothing sent elsewhere.
 */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/**
 * The control page at /_mock/ui (its script and style beside it) and its live feed at
 * /_mock/events, behind whatever guards `app` already has on /_mock/* (the admin API's).
 */
export function uiRoutes(app: Hono, source: FeedSource, stops: Set<() => void>): void {
  const count = new FeedCount();
  const asset = (type: string, body: string) => (c: Context) =>
    c.body(body, 200, { ...PAGE_HEADERS, 'Content-Type': type });
  app.get('/_mock/ui', asset('text/html; charset=utf-8', UI_HTML));
  app.get('/_mock/ui/app.js', asset('text/javascript; charset=utf-8', UI_SCRIPT));
  app.get('/_mock/ui/app.css', asset('text/css; charset=utf-8', UI_CSS));
  app.get('/_mock/events', (c) => {
    const feed = liveFeed(source, count, new URL(c.req.url).origin, stops);
    if (feed === undefined)
      throw new ApiError(
        429,
        `Too many live feeds: ${FEED_LIMITS.followers} pages follow this server already. Close one (or its tab) and reload.`,
      );
    return feed;
  });
}

/** What the mock's page is told: its journal and scenarios, as they change. */
export function mockFeed(steering: Steering, basePath: string): FeedSource {
  const { journal, scenarios } = steering;
  return {
    hello: (origin) => ({
      kind: 'mock',
      api: origin + (basePath === '/' ? '' : basePath),
      paths: API_PATHS,
      examples: { list: Object.keys(EXAMPLES.list), grading: Object.keys(EXAMPLES.grading) },
      requests: journal.list().slice(-FEED_LIMITS.helloRequests),
      scenarios: scenarios.list(),
    }),
    follow: (send) => {
      const stopJournal = journal.watch(
        (entry) => (entry === null ? send('reset', {}) : send('request', journal.show(entry))),
        true,
      );
      // The scenarios once for a burst of changes (each matched request changes a count).
      let queued = false;
      const stopScenarios = scenarios.watch(() => {
        if (queued) return;
        queued = true;
        setTimeout(() => {
          queued = false;
          send('scenarios', scenarios.list());
        }, 50);
      });
      return () => {
        stopJournal();
        stopScenarios();
      };
    },
  };
}
