import { afterAll } from 'vitest';
import { buildFixtures } from '../../mocks/build-fixtures.ts';
import { type AppOptions, createApp } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/node/server.ts';
import { type RawReply, rawRequest } from './raw-request.ts';

/**
 * Mock servers on real node listeners (answer cache and fast path on), made per test file and
 * closed after it; `send` writes a raw request, so any Host, path spelling or framing goes out.
 */
export function adminServers() {
  const fixtures = buildFixtures({ profiles: 60, jobs: 20 });
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  const serve = async (options: Partial<AppOptions> = {}): Promise<RunningServer> => {
    const server = await startServer(createApp({ data: fixtures, log: false, ...options }), {
      port: 0,
    });
    servers.push(server);
    return server;
  };
  const send = <Body = unknown>(
    on: RunningServer,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string | Buffer,
  ): Promise<RawReply<Body>> => rawRequest<Body>(on.port, method, path, headers, body);
  return { serve, send };
}

export const JSON_TYPE = { 'content-type': 'application/json' };
