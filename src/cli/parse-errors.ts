import { UsageError } from './usage-error.ts';

/** A number with a minus sign (`-5`, `-0.5`, `-1/s`, `-Infinity`): a value, never an option. */
const NEGATIVE = /^-(?:\d|\.\d|Infinity|NaN)/;

/**
 * `--flag -5` as `--flag=-5`, so the flag's own check judges the value in its words (parseArgs
 * would take `-5` for an option). A negative number is never an option name, so this holds for
 * every flag of every command; what comes after `--` (a command to run) is left alone.
 */
export function joinNegativeValues(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return [...joined, ...args.slice(i)];
    const next = args[i + 1];
    if (/^--[\w-]+$/.test(arg) && next !== undefined && NEGATIVE.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * What a flag takes, as the command's help writes it (its continuation lines joined, cut at
 * about 100 characters): `N, port to listen on (default 4010; 0 picks a free one),`.
 */
function takes(help: string, flag: string): string {
  const lines = help.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^ +${flag}(?: |$)`).test(l));
  const head = new RegExp(`^ +${flag}(?: ([A-Z][A-Z0-9=-]*))?(?: +|$)(.*)$`).exec(lines[at] ?? '');
  if (head === null) return 'a value';
  const rest = lines.slice(at + 1);
  const more = rest.slice(
    0,
    Math.max(
      0,
      rest.findIndex((l) => !/^ {6,}[^ -]/.test(l)),
    ),
  );
  let what = [head[2] ?? '', ...more].join(' ').replace(/\s+/g, ' ').trim();
  if (what.length > 100) {
    what = what.slice(0, what.lastIndexOf(' ', 100));
    // No parenthesis left open by the cut.
    if (what.split('(').length > what.split(')').length)
      what = what.slice(0, what.lastIndexOf(' ('));
    what = `${what} …`;
  }
  what = what.replace(/[,:;.]$/, '');
  const value = head[1] ?? 'a value';
  return what === '' ? value : `${value}, ${what},`;
}

/** The flags a command's help names. */
function flagsOf(help: string): string[] {
  return [...help.matchAll(/^ +(--[\w-]+)/gm)].map((m) => m[1] as string);
}

/** The documented flag closest to a mistyped one (at most two edits away), if any. */
function closest(help: string, flag: string): string | undefined {
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++)
        next[j] = Math.min(
          (row[j] as number) + 1,
          (next[j - 1] as number) + 1,
          (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
      row = next;
    }
    return row[b.length] as number;
  };
  const ranked = flagsOf(help)
    .map((known) => ({ known, d: distance(flag, known) }))
    .sort((x, y) => x.d - y.d);
  return ranked[0] !== undefined && ranked[0].d <= 2 ? ranked[0].known : undefined;
}

/**
 * A parseArgs error (`ERR_PARSE_ARGS_*`) in hrmock's words: which flag, what it takes, what was
 * given, and the command's --help. Any other error: undefined.
 */
export function parseErrorInWords(
  error: unknown,
  command: string,
  args: readonly string[],
  help: string,
): UsageError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return undefined;
  const message = (error as Error).message;
  const named = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
  const flag = named.split('=')[0] as string;
  const helpAt = `hrmock ${command} --help`;
  const say = (text: string) => new UsageError(`${text} (${helpAt})`);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const near = closest(help, flag);
    return say(
      `unknown option ${flag} for ${command}${near === undefined ? '' : `; did you mean ${near}?`}`,
    );
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const given = /argument '([^']*)'/.exec(message)?.[1] ?? '';
    return say(
      `${command} takes options only, got ${JSON.stringify(given)}: a value goes right after its flag, e.g. --flag VALUE`,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(message)) {
      const given = args.find((a) => a.startsWith(`${flag}=`)) ?? flag;
      return say(`${flag} is a switch and takes no value, got ${JSON.stringify(given)}`);
    }
    if (/argument missing/.test(message))
      return say(`${flag} takes ${takes(help, flag)} and nothing came after it`);
    if (/ambiguous/.test(message)) {
      const given = args[args.indexOf(flag) + 1] ?? '';
      return say(
        `${flag} takes ${takes(help, flag)} got ${JSON.stringify(given)}, which reads as an option: write ${flag}=${given} if it is the value`,
      );
    }
  }
  return say(message.split('\n')[0] as string);
}
