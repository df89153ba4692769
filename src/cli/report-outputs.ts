import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { REPORTERS, type ReporterName } from '../../contract/suite/reporters.ts';
import { UsageError } from './usage-error.ts';

/** One report a command line asks for: a reporter, and the file it goes to (none: stdout). */
export type ReportOutput = { reporter: ReporterName; file?: string };

/** What `parseArgs({ tokens: true })` gives for each option, in command-line order. */
type OptionToken = { kind: string; name?: string; value?: string | undefined };

/**
 * The reports asked for by `--reporter` and `--output`, in the order given. Each `--output FILE`
 * takes the `--reporter` just before it; a `--reporter` no `--output` follows prints to stdout
 * (one at most). A lone `--reporter` and a lone `--output` pair in either order, and `--output`
 * alone is pretty to that file.
 */
export function reportOutputs(tokens: readonly OptionToken[]): ReportOutput[] {
  const given = tokens.filter(
    (t) => t.kind === 'option' && (t.name === 'reporter' || t.name === 'output'),
  );
  const reporters = given.filter((t) => t.name === 'reporter').map((t) => reporterNamed(t.value));
  const files = given.filter((t) => t.name === 'output').map((t) => fileNamed(t.value));
  if (reporters.length <= 1 && files.length <= 1) {
    const [file] = files;
    return [{ reporter: reporters[0] ?? 'pretty', ...(file === undefined ? {} : { file }) }];
  }
  const outputs: ReportOutput[] = [];
  let pending: ReporterName | undefined;
  for (const token of given) {
    if (token.name === 'reporter') {
      if (pending !== undefined) outputs.push({ reporter: pending });
      pending = reporterNamed(token.value);
      continue;
    }
    const file = fileNamed(token.value);
    if (pending === undefined)
      throw new UsageError(
        `--output ${file} has no --reporter just before it: with several reports, give each as --reporter R --output FILE`,
      );
    outputs.push({ reporter: pending, file });
    pending = undefined;
  }
  if (pending !== undefined) outputs.push({ reporter: pending });
  const printed = outputs.filter((o) => o.file === undefined);
  if (printed.length > 1)
    throw new UsageError(
      `--reporter ${printed.map((o) => o.reporter).join(' and --reporter ')} would all print to stdout: follow all but one with --output FILE`,
    );
  const seen = new Set<string>();
  for (const { file } of outputs) {
    if (file === undefined) continue;
    if (seen.has(resolve(file)))
      throw new UsageError(`--output ${file} is given twice: give each report its own file`);
    seen.add(resolve(file));
  }
  return outputs;
}

function reporterNamed(value: string | undefined): ReporterName {
  if (!REPORTERS.includes(value as ReporterName))
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}, got "${value}"`);
  return value as ReporterName;
}

function fileNamed(value: string | undefined): string {
  if (value === undefined || value.trim() === '')
    throw new UsageError('--output takes a file name, got an empty one');
  return value;
}

/** Writes each report given a file, its folders created; the files written, in order. */
async function writeFiles(
  outputs: ReportOutput[],
  text: (reporter: ReporterName) => string,
): Promise<string[]> {
  const written: string[] = [];
  for (const { reporter, file } of outputs) {
    if (file === undefined) continue;
    try {
      await mkdir(dirname(resolve(file)), { recursive: true });
      await writeFile(file, text(reporter));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new Error(`cannot write the ${reporter} report to ${file} (${code})`);
    }
    written.push(file);
  }
  return written;
}

/**
 * The reports of a run: each to its file, the one without a file to stdout. With every report
 * in a file, stdout gets `filed` (a summary) and where each went; with one on stdout, stdout
 * holds that report alone (a JUnit or JSON one stays parseable) and where the others went is
 * said on stderr.
 */
export async function writeReports(
  outputs: ReportOutput[],
  text: (reporter: ReporterName) => string,
  filed: string,
): Promise<void> {
  const written = await writeFiles(outputs, text);
  const notes = written.map((file) => `report written to ${file}\n`).join('');
  const printed = outputs.find((o) => o.file === undefined);
  if (printed === undefined) {
    process.stdout.write(`${filed}${notes}`);
    return;
  }
  process.stdout.write(text(printed.reporter));
  if (notes !== '') (printed.reporter === 'pretty' ? process.stdout : process.stderr).write(notes);
}

/**
 * The reports of a run that could not start: every file still gets one (CI keeps it, dashboards
 * show the error), and a report asked on stdout is printed unless pretty, whose one line the
 * error message already is.
 */
export async function writeCouldNotRun(
  outputs: ReportOutput[],
  text: (reporter: ReporterName) => string,
): Promise<void> {
  await writeFiles(outputs, text);
  const printed = outputs.find((o) => o.file === undefined);
  if (printed !== undefined && printed.reporter !== 'pretty')
    process.stdout.write(text(printed.reporter));
}
