/**
 * What the reference can say of an operation's result: a 400 and the names of the wrong
 * parameters (sorted, each once), or that it succeeded. Messages are the code's own wording and
 * are not compared.
 */
export function outcomeOf(
  result: { ok: true } | { ok: false; errors: readonly { param: string }[] },
): { ok: true } | { ok: false; status: 400; params: string[] } {
  if (result.ok) return { ok: true };
  return { ok: false, status: 400, params: [...new Set(result.errors.map((e) => e.param))].sort() };
}
