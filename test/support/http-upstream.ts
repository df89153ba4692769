import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * An upstream on loopback answering with `handle` through node:http (for raw bytes, see
 * raw-upstream.ts); its URL. Closed, its connections cut, when the test ends.
 */
export async function httpUpstream(handle: RequestListener): Promise<{ url: string }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** An upstream answering every request 200 with an envelope whose list is not a list; its URL. */
export async function brokenUpstream(): Promise<string> {
  const { url } = await httpUpstream((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"code":200,"message":"ok","data":{"profiles":"not a list"}}');
    });
  });
  return url;
}
