import { onTestFinished } from 'vitest';

type TcpHandle = {
  bind(host: string, port: number): number;
  getsockname(out: { port?: number }): number;
  close(): void;
};

/** What this file uses of node's internal `tcp_wrap` binding (not in node's typings). */
type TcpWrap = { TCP: new (type: number) => TcpHandle; constants: { SERVER: number } };

/**
 * A port on 127.0.0.1 that refuses every connection for the whole test: bound but never
 * listening, so connecting gets ECONNREFUSED, and the kernel hands it to no other server asking
 * for a free port (a port just freed could be taken by a test running beside this one).
 */
export function refusingPort(): { url: string; port: number } {
  const { TCP, constants } = (process as unknown as { binding(name: 'tcp_wrap'): TcpWrap }).binding(
    'tcp_wrap',
  );
  const handle = new TCP(constants.SERVER);
  const status = handle.bind('127.0.0.1', 0);
  const address: { port?: number } = {};
  if (status !== 0 || handle.getsockname(address) !== 0 || address.port === undefined)
    throw new Error(`could not bind a port to refuse connections on (status ${status})`);
  onTestFinished(() => handle.close());
  return { url: `http://127.0.0.1:${address.port}`, port: address.port };
}
