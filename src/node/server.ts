import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppFetch, HrmockApp } from '../http/app.ts';
import {
  answerClientErrors,
  type ConnectionTimeouts,
  closeStalledWrites,
  DEFAULT_TIMEOUTS,
  serverTimeoutOptions,
} from './connections.ts';
import { createNodeListener } from './node-listener.ts';
import { rateLimited } from './rate-limit.ts';

export type RunningServer = { url: string; port: number; close: () => Promise<void> };

export type ServeOptions = {
  port?: number;
  host?: string;
  /** Bytes of whole answers kept for repeated requests (default 64 MiB; 0 turns it off). */
  answerCacheBytes?: number;
  /** How long slow clients are waited for (defaults: 10 s for headers, 30 s for a request). */
  timeouts?: Partial<ConnectionTimeouts>;
  /** `auto` (default): gzip for clients that accept it; `off`: never. */
  compress?: 'auto' | 'off';
  /** Answer the six operations without Hono when nothing else is needed (default true). */
  fastPath?: boolean;
  /**
   * Requests a second per API key (or client address without one) on the API's operations; the
   * next one within the second gets the 429 error envelope with Retry-After. Off when absent.
   */
  rateLimit?: number;
  /**
   * Answers every request through this instead of `app.fetch` (a replay of recordings, a test's
   * deliberately broken server): no fast path, and a fault is not acted on the connection.
   */
  fetch?: AppFetch;
};

export const DEFAULT_ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Serves an app on a port (0 picks a free one). The header limit is raised well above the URL
 * limit, so that a long URL reaches the app and gets its 414 envelope instead of Node's bare 431.
 */
export function startServer(app: HrmockApp, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const answering = createNodeListener(app, {
    answerCacheBytes: options.answerCacheBytes ?? DEFAULT_ANSWER_CACHE_BYTES,
    compress: options.compress ?? 'auto',
    fastPath: options.fastPath ?? true,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  });
  const listener =
    options.rateLimit === undefined
      ? answering
      : rateLimited(app.state, options.rateLimit, answering);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const server = createServer(
    { maxHeaderSize: 256 * 1024, ...serverTimeoutOptions(timeouts) },
    listener,
  );
  answerClientErrors(server);
  closeStalledWrites(server, timeouts.writeMs);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${port}`,
        port,
        // Stops accepting, lets the requests in flight finish, then closes each connection as
        // soon as it is idle (keep-alive clients would otherwise hold the server open). A request
        // held by a `hang` fault would never finish: its connection is reset at once.
        close: () =>
          new Promise<void>((done, fail) => {
            for (const end of [...app.state.steering.hangs]) end();
            const sweep = setInterval(() => server.closeIdleConnections(), 50);
            server.close((error) => {
              clearInterval(sweep);
              if (error) fail(error);
              else done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
