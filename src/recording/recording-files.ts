import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One recorded exchange as a file holds it: readable, and without any secret. */
export type RecordingFile = {
  /** The normalised request (see requestKey): what a replay matches on. */
  key: string;
  request: { method: string; path: string; params: Record<string, unknown> };
  response: {
    status: number;
    contentType: string | null;
    /** The JSON answer, when writing it back gives its bytes; otherwise `bodyText`. */
    body?: unknown;
    bodyText?: string;
  };
};

/** A recorded answer, ready to send. */
export type RecordedAnswer = { status: number; contentType: string | null; bytes: Buffer };

/** A recordings folder that cannot be read: says which file and why. */
export class RecordingError extends Error {
  override name = 'RecordingError';
}

/** The file a key is kept in: the operation's name, then a digest of the key. */
export function fileNameOf(key: string): string {
  const operation = key.split('?')[0]?.replace(/^\//, '').replace(/\//g, '-') ?? 'request';
  return `${operation}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`;
}

/** Writes one exchange, replacing an earlier one of the same key (written whole, then renamed). */
export function writeRecording(
  dir: string,
  key: string,
  request: RecordingFile['request'],
  status: number,
  contentType: string | null,
  text: string,
): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const exact = body !== undefined && JSON.stringify(body) === text;
  const file: RecordingFile = {
    key,
    request,
    response: { status, contentType, ...(exact ? { body } : { bodyText: text }) },
  };
  mkdirSync(dir, { recursive: true });
  const path = join(dir, fileNameOf(key));
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(temporary, path);
}

/** Every recording of a folder by key; a file that is not one is a RecordingError naming it. */
export function loadRecordings(dir: string): Map<string, RecordedAnswer> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch (error) {
    throw new RecordingError(
      `cannot read the recordings folder ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give a folder written by hrmock proxy --record`,
    );
  }
  const answers = new Map<string, RecordedAnswer>();
  for (const name of names) {
    const file = readRecording(join(dir, name));
    const text =
      file.response.bodyText ?? (JSON.stringify(file.response.body) as string | undefined) ?? '';
    answers.set(file.key, {
      status: file.response.status,
      contentType: file.response.contentType,
      bytes: Buffer.from(text),
    });
  }
  return answers;
}

function readRecording(path: string): RecordingFile {
  let file: Partial<RecordingFile> | null;
  try {
    file = JSON.parse(readFileSync(path, 'utf8'));
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
  return file as RecordingFile;
}
