/**
 * RFC 7396 JSON merge patch: a patch that is not an object replaces the target whole; an object
 * patch merges member by member, `null` removing a member, an object merging into the member
 * (into `{}` when the member is not an object), anything else (arrays too) replacing it. Returns
 * a new value; neither argument is changed.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = {};
  if (isPlainObject(target))
    for (const [name, value] of Object.entries(target))
      if (!Object.hasOwn(patch, name) || patch[name] !== null) setMember(result, name, value);
  for (const [name, value] of Object.entries(patch))
    if (value !== null)
      setMember(
        result,
        name,
        mergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value),
      );
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own member, whatever its name: `__proto__` of parsed JSON stays a member, not a prototype. */
function setMember(object: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(object, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
