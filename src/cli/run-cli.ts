import { splitAtCommand } from './child-command.ts';
import { CannotRun, checkCommand } from './commands/check.ts';
import { CHECK_HELP } from './commands/check-options.ts';
import { FIXTURES_HELP, fixturesCommand, TARGET_HELP, targetCommand } from './commands/fixtures.ts';
import { INIT_HELP, initCommand } from './commands/init.ts';
import { PROXY_HELP, proxyCommand } from './commands/proxy.ts';
import { SERVE_HELP, serveCommand } from './commands/serve.ts';
import { joinNegativeValues, parseErrorInWords } from './parse-errors.ts';
import { UsageError } from './usage-error.ts';

const HELP = `hrmock: a mock server and contract checks for the Profiles & Jobs API

Usage:
  hrmock serve    [--port 4010] [--host 127.0.0.1] [--seed 42] [--profiles N] [--jobs N]
                  [--base-path /v1] [--api-key K] [--quiet] [--replay DIR [--replay-strict]]
                  [-- CMD [ARGS…]]
  hrmock fixtures [--seed N] [--profiles N] [--jobs N] [--out DIR]
  hrmock target   [--seed N] [--profiles N] [--jobs N] [--from-contract] [--out FILE]
  hrmock check    [--base-url URL] [--target FILE] [--header K=V]
                  [--reporter pretty|junit|json|html|markdown [--output FILE]]...
                  [--via-prism] [--timeout S] [--deadline S] [--max-rps R]
                  [--fuzz N [--seed S]] [--min-coverage P] [--max-latency MS]
  hrmock proxy    --upstream URL [--port 4011] [--host H] [--record DIR] [--redact-header H]
                  [--reporter R [--output FILE]]... [--timeout S] [-- CMD [ARGS…]]
  hrmock init     DIR [--seed N] [--profiles N] [--jobs N] [--base-url URL]
                  (the mock's Service Worker, written into your app's public folder)

With "-- CMD [ARGS…]", serve and proxy run CMD against themselves (HRMOCK_URL / HRMOCK_PROXY_URL
in its environment), stop when it ends and exit with its status if it failed.
Exit status: 0 clean, 1 violations, 2 could not judge; with -- CMD, CMD's own status if it failed.
Run "hrmock <command> --help" for the options of one command.`;

type Command = { help: string; run: (args: string[]) => Promise<number> };

const COMMANDS: Record<string, Command> = {
  serve: { help: SERVE_HELP, run: serveCommand },
  fixtures: { help: FIXTURES_HELP, run: fixturesCommand },
  target: { help: TARGET_HELP, run: targetCommand },
  check: { help: CHECK_HELP, run: checkCommand },
  proxy: { help: PROXY_HELP, run: proxyCommand },
  init: { help: INIT_HELP, run: initCommand },
};

async function dispatch(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined)
    throw new UsageError(
      `unknown command "${name}": use serve, check, proxy, fixtures, target or init (hrmock --help)`,
    );
  // A --help after `--` is the command's own.
  const own = splitAtCommand(args).own;
  if (own.includes('--help') || own.includes('-h')) {
    process.stdout.write(`${command.help}\n`);
    return 0;
  }
  // `--fuzz -5` reaches --fuzz's own check; any other parseArgs error is said in hrmock's words.
  const joined = joinNegativeValues(args);
  try {
    return await command.run(joined);
  } catch (error) {
    throw parseErrorInWords(error, name, joined, command.help) ?? error;
  }
}

/** Runs one command line and answers its exit status: 0 done, 1 failed or violated, 2 could not run. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    const usage =
      error instanceof UsageError ||
      error instanceof CannotRun ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`hrmock: ${(error as Error).message}\n`);
    return usage ? 2 : 1;
  }
}
