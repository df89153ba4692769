import { hash } from 'node:crypto';

/** A 40-hex key that names its object by seed and path, so keys never depend on draw order. */
export function keyOf(seed: number, ...path: (string | number)[]): string {
  return hash('sha1', `${seed}:${path.join(':')}`, 'hex');
}
