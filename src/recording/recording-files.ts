import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_REDACTION } from '../http/redaction.ts';

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
    // Redacted by the caller with its own names too; never written with a secret of the list.
    request: { ...request, params: DEFAULT_REDACTION.params(request.params) },
    response: { status, contentType, ...(exact ? { body } : { bodyText: text }) },
  };
  mkdirSync(dir, { recursive: true });
  const path = join(dir, fileNameOf(key));
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(temporary, path);
}
