import { describe, expect, it, vi } from 'vitest';
import { serveCommand } from '../src/cli/commands/serve.ts';
import type { HrmockApp } from '../src/http/app.ts';
import type { ServeOptions } from '../src/node/server.ts';

// `serve` stops where it would open its port, with the options it would open it with: the
// defaults are seen here at once, where waiting for a 10 s limit on a port would take 10 s.
const passed = vi.hoisted(() => [] as ServeOptions[]);
const apps = vi.hoisted(() => [] as HrmockApp[]);
vi.mock('../src/node/server.ts', () => ({
  startServer: async (app: HrmockApp, options: ServeOptions) => {
    passed.push(options);
    apps.push(app);
    throw new Error('not listening in this test');
  },
}));

async function timeoutsOf(flags: string[]): Promise<ServeOptions['timeouts']> {
  passed.length = 0;
  const small = ['--port', '0', '--quiet', '--profiles', '10', '--jobs', '5'];
  await expect(serveCommand([...small, ...flags])).rejects.toThrow('not listening in this test');
  return passed[0]?.timeouts;
}

describe('hrmock serve timeouts', () => {
  it('gives the server 10 s for headers, 30 s per request, 5 s of keep-alive and 30 s for an unread answer by default', async () => {
    expect(await timeoutsOf([])).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
      writeMs: 30_000,
    });
  });

  it('gives the server the seconds its four timeout flags name', async () => {
    const flags = [
      '--headers-timeout',
      '2.5',
      '--request-timeout',
      '7',
      '--keep-alive-timeout',
      '0.25',
      '--write-timeout',
      '12',
    ];
    expect(await timeoutsOf(flags)).toEqual({
      headersMs: 2_500,
      requestMs: 7_000,
      keepAliveMs: 250,
      writeMs: 12_000,
    });
  });
});

async function journalOf(
  flags: string[],
): Promise<HrmockApp['state']['steering']['journal'] | undefined> {
  apps.length = 0;
  const small = ['--port', '0', '--quiet', '--profiles', '10', '--jobs', '5'];
  await expect(serveCommand([...small, ...flags])).rejects.toThrow('not listening in this test');
  return apps[0]?.state.steering.journal;
}

describe('hrmock serve journal', () => {
  it('keeps 1,000 requests within 32 MiB by default', async () => {
    const journal = await journalOf([]);
    expect(journal?.size).toBe(1000);
    expect(journal?.budget).toBe(32 * 1024 * 1024);
  });

  it('records nothing with --admin off, where nothing could read it', async () => {
    const journal = await journalOf(['--admin', 'off']);
    expect(journal?.size).toBe(0);
    expect(journal?.on).toBe(false);
  });

  it('records with --admin off when --journal-size asks for it', async () => {
    const journal = await journalOf(['--admin', 'off', '--journal-size', '50']);
    expect(journal?.size).toBe(50);
  });

  it('takes its budget from --journal-bytes', async () => {
    const journal = await journalOf(['--journal-bytes', '1048576']);
    expect(journal?.budget).toBe(1024 * 1024);
    expect(journal?.bytes).toBeLessThanOrEqual(1024 * 1024);
  });
});
