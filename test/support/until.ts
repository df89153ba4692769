/** Waits until `done()` holds, checking every 50 ms, for at most `ms` (generous: a bound, not a measure). */
export async function until(done: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`gave up waiting after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
