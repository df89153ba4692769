/** A parameter that was missing or wrong, and what to send instead. */
export type ParamError = { param: string; message: string };

/** Expected failures are values: parsing returns one of these, it does not throw. */
export type Result<T> = { ok: true; value: T } | { ok: false; errors: ParamError[] };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(errors: ParamError[]): Result<T> {
  return { ok: false, errors };
}
