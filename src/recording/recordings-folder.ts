import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_JSON_DEPTH, JSON_MEDIA_TYPE, jsonDepth } from '../http/request-params.ts';
import { RecordingError, type RecordingFile } from './recording-files.ts';

/** A recorded answer, ready to send. */
export type RecordedAnswer = {
  status: number;
  contentType: string | null;
  bytes: Buffer;
  /** Recorded as JSON (`body`) with a JSON content type: anything else is served as inert. */
  json: boolean;
};

/**
 * Every recording of a folder by key. Only the folder's own regular files are read: a symbolic
 * link (to a file or a folder) is refused unread, never followed, so that a folder cannot serve
 * a file from elsewhere. Anything else wrong is a RecordingError naming the file.
 */
export function loadRecordings(
  dir: string,
  maxDepth = DEFAULT_JSON_DEPTH,
): Map<string, RecordedAnswer> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    throw new RecordingError(
      `cannot read the recordings folder ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give a folder written by hrmock proxy --record`,
    );
  }
  const answers = new Map<string, RecordedAnswer>();
  for (const name of names) {
    const path = join(dir, name);
    if (!regularJson(path, name)) continue;
    const file = readRecording(path, maxDepth);
    const { response } = file;
    const text = response.bodyText ?? (JSON.stringify(response.body) as string | undefined) ?? '';
    answers.set(file.key, {
      status: response.status,
      contentType: response.contentType,
      bytes: Buffer.from(text),
      json: response.bodyText === undefined && JSON_MEDIA_TYPE.test(response.contentType ?? ''),
    });
  }
  return answers;
}

/** Whether an entry is a recording to read: a `.json` regular file; a link stops the load. */
function regularJson(path: string, name: string): boolean {
  let entry: ReturnType<typeof lstatSync>;
  try {
    entry = lstatSync(path);
  } catch (error) {
    throw new RecordingError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  if (entry.isSymbolicLink())
    throw new RecordingError(
      `${path} is a symbolic link, which a recordings folder may not hold (links are never followed): put the recording itself there, or remove the link`,
    );
  if (!name.endsWith('.json')) return false;
  if (!entry.isFile())
    throw new RecordingError(`${path} is not a regular file: a recording is one JSON file`);
  return true;
}

/** One recording, read through a descriptor that refuses a link put there since the check. */
function readRecording(path: string, maxDepth: number): RecordingFile {
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new RecordingError(`cannot read ${path} (${why}): a recording is one regular JSON file`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let file: Partial<RecordingFile> | null;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new RecordingError(`${path} is not JSON (${(error as Error).message})`);
  }
  const response = file?.response;
  const status = response?.status;
  const ok =
    typeof file?.key === 'string' &&
    typeof status === 'number' &&
    Number.isInteger(status) &&
    status >= 100 &&
    status <= 599 &&
    ('body' in (response ?? {}) || typeof response?.bodyText === 'string');
  if (!ok)
    throw new RecordingError(
      `${path} is not a recording: it needs "key", "response.status" (100 to 599) and "response.body" or "response.bodyText"`,
    );
  // Written back to bytes when served: a body too deep for that is refused now.
  if (jsonDepth(response?.body, maxDepth) > maxDepth)
    throw new RecordingError(`${path} holds a body nested deeper than ${maxDepth} levels`);
  return file as RecordingFile;
}
