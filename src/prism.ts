import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { CONTRACT_FILE } from '../contract/location.ts';
import { stopChild } from './stop-child.ts';

export type PrismOptions = {
  mode: 'mock' | 'proxy';
  contract?: string;
  /** For `proxy`: the server Prism forwards to. */
  upstream?: string;
  /** For `mock`: generate responses from the schemas instead of serving the examples. */
  dynamic?: boolean;
  startTimeoutMs?: number;
};

export type RunningPrism = {
  url: string;
  /** The last lines Prism printed, for diagnostics. */
  log: () => string;
  stop: () => Promise<void>;
};

/** Prism is an optional peer dependency: only `check --via-prism` needs it. */
export class PrismMissing extends Error {
  override name = 'PrismMissing';
  constructor() {
    super(
      '--via-prism needs Prism, an optional peer dependency: npm install --save-dev @stoplight/prism-cli@5.14.2',
    );
  }
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve('@stoplight/prism-cli/dist/index.js');
  } catch {
    throw new PrismMissing();
  }
}

/** Starts `prism mock|proxy` on a free loopback port and resolves once it listens. */
export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const args = [prismBin(), options.mode, options.contract ?? CONTRACT_FILE];
  if (options.mode === 'proxy') {
    if (options.upstream === undefined) throw new Error('prism proxy needs an upstream URL');
    args.push(options.upstream);
  }
  args.push('--host', '127.0.0.1', '--port', '0');
  if (options.dynamic) args.push('--dynamic');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const remember = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stderr?.on('data', remember);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`prism ${options.mode} did not start in time:\n${lines.join('\n')}`));
    }, options.startTimeoutMs ?? 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      remember(chunk);
      const found = /Prism is listening on (http:\/\/[^\s]+)/.exec(chunk.toString('utf8'));
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1].replace(/\/$/, ''));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism ${options.mode} exited with ${code}:\n${lines.join('\n')}`));
    });
  });
  return { url, log: () => lines.join('\n'), stop: () => stopChild(child) };
}
