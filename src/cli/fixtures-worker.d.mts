/** A fixture file read: its items, its bytes, and the separators of its array (see below). */
export type FixtureFile = { items: unknown[]; bytes: Uint8Array; seps: Uint32Array };

/**
 * The array in the file at `path` (called `name` in problems), or `{problems}` that stop it.
 * `seps` holds the offsets of the array's `[`, of each `,` between two items, and of its `]`
 * (none for an empty array): item i is the JSON text between `seps[i]` and `seps[i + 1]`.
 */
export function readFixtureFile(
  path: string,
  name: string,
  maxDepth: number,
): (FixtureFile & { problems?: undefined }) | { items?: undefined; problems: string[] };

/** `line:column` of a byte offset of `bytes`; cheapest when asked in increasing order. */
export function lineColumns(bytes: Uint8Array): (offset: number) => string;

/** `line:column` where item i of the array begins. */
export function itemPositions(bytes: Uint8Array, seps: Uint32Array): (index: number) => string;
