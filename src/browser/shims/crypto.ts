// `node:crypto` for the browser build: exactly what hrmock calls, nothing more. Keys are sha1 of
// text (mocks/keys.ts), so the browser must hash byte for byte as Node does, or every fixture key
// would differ; WebCrypto cannot, being asynchronous. The API key guard needs sha256 and a compare.

import { sha1, sha256 } from './sha.ts';

type Algorithm = 'sha1' | 'sha256';
type Digest = (bytes: Uint8Array) => Uint8Array;

const DIGESTS: Record<Algorithm, Digest> = { sha1, sha256 };
const encoder = new TextEncoder();

/** `createHash(algorithm).update(text).digest('hex' | undefined)`, for strings and bytes. */
export function createHash(algorithm: string) {
  const digest = digestOf(algorithm);
  const parts: Uint8Array[] = [];
  const hasher = {
    update(data: string | Uint8Array) {
      parts.push(typeof data === 'string' ? encoder.encode(data) : data);
      return hasher;
    },
    digest(encoding?: 'hex') {
      const bytes = digest(concat(parts));
      return encoding === 'hex' ? toHex(bytes) : bytes;
    },
  };
  return hasher;
}

/** `hash(algorithm, text, 'hex')`: the one-shot form mocks/keys.ts uses. */
export function hash(algorithm: string, data: string | Uint8Array, encoding = 'hex'): string {
  if (encoding !== 'hex') throw new Error(`hash: only hex output is shimmed, got ${encoding}`);
  return createHash(algorithm).update(data).digest('hex') as string;
}

/** Compares every byte whatever differs first, as Node's does; lengths must match, as in Node. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length');
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

function digestOf(algorithm: string): Digest {
  const digest = DIGESTS[algorithm.toLowerCase() as Algorithm];
  if (digest === undefined)
    throw new Error(`Digest method not supported in the browser: ${algorithm}`);
  return digest;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
