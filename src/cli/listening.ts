import { UsageError } from './usage-error.ts';

/** What to throw for a failure to listen: a usage error for a port in use or a foreign address. */
export function listenFailure(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new UsageError(
      `port ${port} is already in use on ${host}: stop the other server or pick another --port`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new UsageError(`cannot listen on ${host}: not an address of this machine`);
  return error;
}

/**
 * Resolves on SIGINT or SIGTERM. Made before a server announces its URL: a client that sends
 * SIGTERM as soon as it reads the URL must find a handler, not the default that kills at once.
 */
export function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
