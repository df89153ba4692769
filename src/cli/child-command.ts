import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { UsageError } from './usage-error.ts';

/**
 * The exit statuses of check, proxy and `serve … -- CMD` alike (docs/cli.md, "Exit codes"); with
 * `-- CMD`, CMD's own status when it failed comes first.
 */
export const EXIT = { clean: 0, violations: 1, couldNotJudge: 2 } as const;

/** A command line cut at its first `--`: hrmock's own flags, and the command to run (if any). */
export type CommandLine = { own: string[]; command: string[] | undefined };

/** Cuts `args` at the first `--` (parseArgs would read what follows as positionals). */
export function splitAtCommand(args: readonly string[]): CommandLine {
  const at = args.indexOf('--');
  if (at < 0) return { own: [...args], command: undefined };
  const command = args.slice(at + 1);
  if (command.length === 0 || command[0] === '')
    throw new UsageError('"--" must be followed by a command to run, e.g. -- npm test');
  return { own: args.slice(0, at), command };
}

/** How a command ended: its status (128 + signal number when a signal ended it), or why it never ran. */
export type CommandEnd = { status: number } | { notStarted: string };

/** A command running with hrmock: how it ends, and a way to stop it early. */
export type RunningCommand = {
  ended: Promise<CommandEnd>;
  /** Sends SIGTERM (SIGKILL after `graceMs`) and resolves once the command is gone. */
  stop: (graceMs?: number) => Promise<void>;
};

/** A command whose signals hrmock already takes, to start once hrmock listens. */
export type PendingCommand = {
  /** The command line, as given after `--`. */
  command: string[];
  start: (env: Record<string, string>) => RunningCommand;
};

const FORWARDED = ['SIGINT', 'SIGTERM'] as const;

/**
 * From now on, the SIGINT and SIGTERM hrmock receives go to `command` instead of ending hrmock
 * (made before hrmock announces its URL, as `stopSignal` is). `start` spawns it (no shell, stdio
 * inherited) with `env` added to hrmock's environment; hrmock ends once it does.
 */
export function prepareCommand(command: string[]): PendingCommand {
  const [file = '', ...args] = command;
  let child: ChildProcess | undefined;
  let early: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals) => {
    if (child === undefined) early ??= signal;
    else if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  const start = (env: Record<string, string>): RunningCommand => {
    const ended = new Promise<CommandEnd>((resolve) => {
      const done = (end: CommandEnd) => {
        for (const signal of FORWARDED) process.off(signal, forward);
        resolve(end);
      };
      try {
        child = spawn(file, args, { stdio: 'inherit', env: { ...process.env, ...env } });
      } catch (error) {
        done({ notStarted: notStarted(file, error) });
        return;
      }
      // Failing to spawn emits 'error' and no 'exit'; a later error (a failed kill) changes nothing.
      child.once('error', (error) => {
        if (child?.pid === undefined) done({ notStarted: notStarted(file, error) });
      });
      child.once('exit', (code, signal) => done({ status: exitStatus(code, signal) }));
      if (early !== undefined && child.pid !== undefined) child.kill(early);
    });
    const stop = async (graceMs = 5_000) => {
      if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child?.kill('SIGKILL'), graceMs);
      child.kill('SIGTERM');
      await ended;
      clearTimeout(force);
    };
    return { ended, stop };
  };
  return { command, start };
}

/** A process's status as a shell gives it: its exit code, or 128 + the number of the signal that ended it. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : constants.signals[signal];
  return number === undefined ? 1 : 128 + number;
}

/** The status of a run with `-- CMD`: the command's own when it failed, else hrmock's. */
export function finalStatus(end: CommandEnd, own: number): number {
  if ('notStarted' in end) return EXIT.couldNotJudge;
  return end.status !== 0 ? end.status : own;
}

function notStarted(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such command on the PATH (nor file)'
      : code === 'EACCES'
        ? 'not executable (permission denied)'
        : ((error as Error).message ?? String(error));
  return `cannot run the command after "--", ${JSON.stringify(file)}: ${why}`;
}
