import fc from 'fast-check';

/**
 * Seeds fast-check for this test file: FUZZ_SEED when set (a replay), else a fresh seed, printed
 * so that a failure can be run again with the same cases.
 */
export function seedFastCheck(file: string): number {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
  process.stdout.write(`${file}: fast-check seed ${seed}; replay with FUZZ_SEED=${seed}\n`);
  return seed;
}
