import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

export type RunningServer = { url: string; port: number; close: () => Promise<void> };

/**
 * Serves an app on a port (0 picks a free one). The header limit is raised well above the URL
 * limit, so that a long URL reaches the app and gets its 414 envelope instead of Node's bare 431.
 */
export function startServer(
  app: Hono,
  options: { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port: options.port ?? 0,
        hostname: host,
        serverOptions: { maxHeaderSize: 256 * 1024 },
      },
      (info: AddressInfo) => {
        const shownHost = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shownHost}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done, fail) => {
              server.close((error) => (error ? fail(error) : done()));
              if ('closeIdleConnections' in server) server.closeIdleConnections();
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
