import { request as httpRequest } from 'node:http';

/**
 * An answer: `body` is the JSON as sent (undefined when there is none), read as `Body`, the
 * answer the caller says it asked for.
 */
export type RawReply<Body = unknown> = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Body;
};

/**
 * A request as written, on a socket of its own, to a server on 127.0.0.1: the Host and the path
 * go out as given (fetch would normalise the path and set the Host itself).
 */
export function rawRequest<Body = unknown>(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawReply<Body>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text === '' ? undefined : JSON.parse(text),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
