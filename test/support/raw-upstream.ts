import {
  type AddressInfo,
  createConnection,
  createServer,
  type Server,
  type Socket,
} from 'node:net';
import { onTestFinished } from 'vitest';

export type RawUpstream = {
  url: string;
  /** Connections accepted, requests read, each request's head and body as it came. */
  seen: { connections: number; requests: number; heads: string[]; bodies: string[] };
};

/**
 * An upstream speaking raw bytes: `answer` gets each request's head (once its body, framed by
 * Content-Length or chunked, is read) and the socket, and writes what it likes. Closed when the
 * test ends.
 */
export async function rawUpstream(
  answer: (head: string, socket: Socket, n: number) => void,
): Promise<RawUpstream> {
  const seen: RawUpstream['seen'] = { connections: 0, requests: 0, heads: [], bodies: [] };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    seen.connections++;
    sockets.add(socket);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const chunked = /\r\ntransfer-encoding: chunked/i.test(head);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        const last = buffered.indexOf('\r\n0\r\n\r\n', end + 2);
        const after = chunked ? (last < 0 ? -1 : last + 7) : end + 4 + length;
        if (after < 0 || buffered.length < after) return;
        seen.heads.push(head);
        seen.bodies.push(buffered.slice(end + 4, after));
        buffered = buffered.slice(after);
        answer(head, socket, ++seen.requests);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/**
 * Sends `request` as raw bytes on a connection of its own and resolves with every byte that came
 * back until the other side closed it.
 */
export function rawExchange(url: string, request: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = createConnection(Number(port), hostname, () => socket.write(request, 'latin1'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
}
