/** `{items}`: the array in the file at `path` (called `name`), or `{problems}` that stop it. */
export function readFixtureFile(
  path: string,
  name: string,
  maxDepth: number,
): { items: unknown[]; problems?: undefined } | { items?: undefined; problems: string[] };
