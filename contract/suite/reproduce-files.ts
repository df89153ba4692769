import { dirname, join } from 'node:path';
import { commandWords, shellWord, wordText } from './reproduce.ts';
import type { Evidence, Outcome } from './rule.ts';
import type { Report } from './run-suite.ts';

/**
 * No line of a report is over 8 KB (a command line of a megabyte fails with "Argument list too
 * long", and no reader wants it). A reproduce line that would be keeps what makes it long in a
 * numbered file beside the report: its body (`--data-binary @…/001.json`), and a URL over 8 KB
 * its query (`-G --data-binary @…/002.query`, curl appends it to the URL) or, with a body too,
 * the whole URL (`--config …/003.curl`). Any other evidence field over 8 KB is cut, with a note.
 */
export const MAX_LINE_BYTES = 8 * 1024;

/** A file a reproduce line reads: `path` as the line names it. */
export type ReproduceFile = { path: string; text: string };

export type ShortLines = {
  report: Report;
  files: ReproduceFile[];
  /** How many files hold request bodies, and how many URLs. */
  bodies: number;
  urls: number;
};

/** Where the files go: `reproduce/` beside the first report file, else `hrmock-reproduce/`. */
export function reproduceFolder(firstOutput: string | undefined): string {
  return firstOutput === undefined ? 'hrmock-reproduce' : join(dirname(firstOutput), 'reproduce');
}

/** The summary's line about the files, or nothing when none was written. */
export function filesNote(short: ShortLines, folder: string): string | undefined {
  if (short.files.length === 0) return undefined;
  const what = [
    short.bodies === 0 ? '' : `${short.bodies} request ${short.bodies === 1 ? 'body' : 'bodies'}`,
    short.urls === 0 ? '' : `${short.urls} URL${short.urls === 1 ? '' : 's'} over 8 KB`,
  ].filter(Boolean);
  return `${what.join(' and ')} written to ${folder}/ (the reproduce lines over 8 KB read them from there)`;
}

/** Evidence text over 8 KB, cut there with a note saying how long it was. */
export function cutField(text: string): string {
  if (text.length <= MAX_LINE_BYTES / 4 || Buffer.byteLength(text) <= MAX_LINE_BYTES) return text;
  const note = ` … [cut: ${text.length} characters in all, the first 8 KB shown]`;
  const kept = Buffer.from(text).subarray(0, MAX_LINE_BYTES - Buffer.byteLength(note));
  return `${kept.toString('utf8').replace(/\uFFFD+$/, '')}${note}`;
}

/** The evidence with `request`, `expected` and `got` cut to 8 KB (the reproduce line kept). */
export function boundEvidence(evidence: Evidence): Evidence {
  const { request, expected, got } = evidence;
  return {
    ...evidence,
    request: cutField(request),
    expected: cutField(expected),
    got: cutField(got),
  };
}

/**
 * The report with every line under 8 KB, and the files its reproduce lines now read, numbered
 * in the order of the failures (the same request twice reads one file). `folder` is the files'
 * folder as the lines name it (relative to where the check runs, or absolute).
 */
export function keepLinesShort(report: Report, folder: string): ShortLines {
  const files: ReproduceFile[] = [];
  const byText = new Map<string, string>();
  const file = (text: string, ext: string): string => {
    const known = byText.get(`${ext}\n${text}`);
    if (known !== undefined) return known;
    const name = `${folder.replace(/\/+$/, '')}/${String(files.length + 1).padStart(3, '0')}.${ext}`;
    files.push({ path: name, text });
    byText.set(`${ext}\n${text}`, name);
    return name;
  };
  const shorten = (evidence: Evidence): Evidence => {
    const bounded = boundEvidence(evidence);
    if (evidence.reproduce !== undefined && tooLong(evidence.reproduce))
      bounded.reproduce = shortLine(evidence.reproduce, file);
    return bounded;
  };
  const results = report.results.map((result) => {
    const outcome: Outcome = result.outcome;
    if (outcome.status !== 'fail') return result;
    const more = outcome.more?.map(shorten);
    return {
      ...result,
      outcome: {
        ...outcome,
        evidence: shorten(outcome.evidence),
        ...(more === undefined ? {} : { more }),
      },
    };
  });
  const urls = files.filter((f) => /\.(query|curl)$/.test(f.path)).length;
  return { report: { ...report, results }, files, bodies: files.length - urls, urls };
}

function tooLong(line: string): boolean {
  return line.length > MAX_LINE_BYTES / 4 && Buffer.byteLength(line) > MAX_LINE_BYTES;
}

/** A path as one shell word: bare when it needs no quoting. */
function pathWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : shellWord(path);
}

/**
 * A `curlCommand` line made short: a URL over 8 KB (or the URL of a long line with no body) to
 * a file, then, if the line is still too long, its body. Any other line (`hrmock check …`) is
 * kept.
 */
function shortLine(line: string, file: (text: string, ext: string) => string): string {
  const words = commandWords(line);
  const urlAt = words.indexOf('-X') + 2;
  if (words[0] !== 'curl' || urlAt < 2 || words[urlAt] === undefined) return line;
  const dataAt = words.lastIndexOf('--data-binary');
  const bodyAt = dataAt > 0 && dataAt === words.length - 2 ? dataAt + 1 : -1;
  let said = '';
  // A URL over 8 KB alone (or what makes a line with no body long): its query read by curl -G
  // (with no body to send), else the whole URL by --config.
  if (Buffer.byteLength(words[urlAt] as string) > MAX_LINE_BYTES || bodyAt < 0) {
    const url = wordText(words[urlAt] as string);
    const query = url.indexOf('?');
    const size = Buffer.byteLength(url);
    if (bodyAt < 0 && query >= 0) {
      // curl -G appends the data it reads, byte for byte, to the URL after a `?`.
      const path = file(url.slice(query + 1), 'query');
      words.splice(urlAt, 1, shellWord(url.slice(0, query)));
      words.splice(urlAt - 2, 0, '-G');
      words.push('--data-binary', pathWord(`@${path}`));
      said = ` # a URL of ${size} bytes: its query is read from ${path}`;
    } else {
      const path = file(`url = "${configQuoted(url)}"\n`, 'curl');
      words.splice(urlAt, 1, '--config', pathWord(path));
      said = ` # a URL of ${size} bytes: read from ${path}`;
    }
  }
  const last = words.length - 1;
  if (bodyAt >= 0 && tooLong(words.join(' '))) {
    const body = wordText(words[last] as string);
    words[last] = pathWord(`@${file(body, isJson(body) ? 'json' : 'txt')}`);
  }
  return `${words.join(' ')}${said}`;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const CONFIG_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** Text inside a curl config file's double quotes. */
function configQuoted(text: string): string {
  return text.replace(/[\\"\n\r\t\v]/g, (c) => CONFIG_ESCAPES[c] as string);
}

/**
 * `keepLinesShort` for a run whose first report file is `firstOutput` (none: reports on
 * stdout): each file written with `write`, its folder created there; the note for the summary.
 */
export async function shortenReport(
  report: Report,
  firstOutput: string | undefined,
  write: (path: string, text: string) => Promise<void>,
): Promise<{ report: Report; note?: string }> {
  const folder = reproduceFolder(firstOutput);
  const short = keepLinesShort(report, folder);
  for (const file of short.files) await write(file.path, file.text);
  const note = filesNote(short, folder);
  return note === undefined ? { report: short.report } : { report: short.report, note };
}
