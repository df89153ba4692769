/** A 40-character key made of one repeated character. */
export const key = (c: string) => c.repeat(40);

/**
 * A target as a user writes it: two profiles and two jobs, and no algorithm key unless `algorithms`
 * names one per side. Each side's fields are spread last, so a test may add, override or drop any.
 */
export function writtenTarget(
  profiles: Record<string, unknown> = {},
  jobs: Record<string, unknown> = {},
  algorithms: { profiles?: string; jobs?: string } = {},
) {
  return {
    profiles: {
      ...(algorithms.profiles === undefined ? {} : { algorithm_key: algorithms.profiles }),
      source_keys: [key('a')],
      board_key: key('b'),
      job_key: key('c'),
      profile_ids: [
        { source_key: key('a'), profile_key: key('d') },
        { source_key: key('a'), profile_key: key('e') },
      ],
      ...profiles,
    },
    jobs: {
      ...(algorithms.jobs === undefined ? {} : { algorithm_key: algorithms.jobs }),
      board_keys: [key('b')],
      source_key: key('a'),
      profile_key: key('d'),
      job_ids: [
        { board_key: key('b'), job_key: key('c') },
        { board_key: key('b'), job_key: key('f') },
      ],
      ...jobs,
    },
  };
}
