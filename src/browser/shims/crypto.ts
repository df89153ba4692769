// `node:crypto` for the browser build: exactly what hrmock calls, nothing more. Keys are sha1 of
// text (mocks/keys.ts), so the browser must hash byte for byte as Node does, or every fixture key
// would differ; WebCrypto cannot, being asynchronous. The API key guard needs sha256 and a compare.

import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const HASHES = { sha1, sha256 };
const encoder = new TextEncoder();

/** `createHash(algorithm).update(text).digest('hex' | undefined)`, for strings and bytes. */
export function createHash(algorithm: string) {
  const state = hashOf(algorithm).create();
  const hasher = {
    update(data: string | Uint8Array) {
      state.update(typeof data === 'string' ? encoder.encode(data) : data);
      return hasher;
    },
    digest(encoding?: 'hex') {
      const bytes = state.digest();
      return encoding === 'hex' ? bytesToHex(bytes) : bytes;
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

function hashOf(algorithm: string) {
  const name = algorithm.toLowerCase();
  if (name !== 'sha1' && name !== 'sha256')
    throw new Error(`Digest method not supported in the browser: ${algorithm}`);
  return HASHES[name];
}
