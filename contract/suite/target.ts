import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';

/**
 * The existing objects the suite may use on a deployment, named as the API names them
 * (see DESIGN.md, "Target"). The suite keeps its own definition: it never imports the mock.
 */
export type Target = {
  headers: Record<string, string>;
  /** Header values as written in a target the user gave (`${VAR}` kept), for reproducers. */
  headerTemplates?: Record<string, string>;
  profiles: {
    /**
     * The grading algorithm (and the scoring one unless `scoring_algorithm_key` is given); a
     * target file may name it `grading_algorithm_key`.
     */
    algorithm_key: string;
    /** The scoring algorithm; `null`: scoring is sent without one (the deployment's default). */
    scoring_algorithm_key?: string | null;
    source_keys: string[];
    board_key: string;
    job_key: string;
    profile_ids: { source_key: string; profile_key: string }[];
    /** Where to grade profiles: the contract's `/profiles/grading` or the SDKs' `/profile/grading`. */
    grading_path: (typeof GRADING_PATHS.profiles)[number];
  };
  jobs: {
    algorithm_key: string;
    scoring_algorithm_key?: string | null;
    board_keys: string[];
    source_key: string;
    profile_key: string;
    job_ids: { board_key: string; job_key: string }[];
    /** Where to grade jobs: `/jobs/grading` or `/job/grading`. */
    grading_path: (typeof GRADING_PATHS.jobs)[number];
  };
};

/** The two spellings of each grading path; the first, the contract's own, is the default. */
export const GRADING_PATHS = {
  profiles: ['/profiles/grading', '/profile/grading'],
  jobs: ['/jobs/grading', '/job/grading'],
} as const;

/** A target that cannot be used: the check stops (exit 2) with this message. */
export class TargetError extends Error {
  override name = 'TargetError';
}

const KEY = /^[0-9a-f]{40}$/;

/** Environment variables by name, as `process.env` holds them (no Node types in the public API). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Replaces `${NAME}` in header values with the environment variable NAME. */
export function expandEnv(value: string, env: Env, where: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined)
      throw new TargetError(`${where} refers to \${${name}}, which is not set in the environment`);
    return found;
  });
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/;

/** A header value of a served target: taken as it is, never expanded. */
function literal(value: string, where: string, fail: (what: string) => never): string {
  const reference = REFERENCE.exec(value);
  if (reference === null) return value;
  return fail(
    `${where} refers to \${${reference[1]}}: a target served by the server under test may not name environment variables. Pass the header with --header NAME=\${${reference[1]}} or write the target to a file and use --target FILE`,
  );
}

/** The largest target file read: a target names a few keys, 10 profiles and 10 jobs are plenty. */
export const MAX_TARGET_BYTES = 1024 * 1024;

export async function readTargetFile(path: string, env: Env = process.env): Promise<Target> {
  let text: string;
  try {
    text = await readSmall(path);
  } catch (error) {
    if (error instanceof TargetError) throw error;
    throw new TargetError(`cannot read the target file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TargetError(`the target file ${path} is not JSON: ${(error as Error).message}`);
  }
  return parseTarget(json, env, path);
}

/**
 * A target file's text, refused over MAX_TARGET_BYTES: a file is sized before it is read, and a
 * pipe (`--target <(…)`) is read no further than the limit.
 */
async function readSmall(path: string): Promise<string> {
  const tooBig = (size: string) =>
    new TargetError(
      `the target file ${path} is ${size}, over the 1 MB (${MAX_TARGET_BYTES} bytes) a target may be: it names keys, and 10 profile_ids and 10 job_ids are enough (see docs/contract-rules.md, "Checking a deployment")`,
    );
  const info = await stat(path);
  if (info.isFile()) {
    if (info.size > MAX_TARGET_BYTES) throw tooBig(`${info.size} bytes`);
    return readFile(path, 'utf8');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of createReadStream(path, { end: MAX_TARGET_BYTES })) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  if (size > MAX_TARGET_BYTES) throw tooBig(`more than ${MAX_TARGET_BYTES} bytes`);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Checks a target's shape, naming the first field that is wrong. `env` expands `${NAME}` in
 * header values; it is given only for a target the user wrote (a file, an object in process).
 * A target served by the server under test gets `null`: a reference to the environment in it is
 * refused, so a server can never ask for this machine's secrets.
 */
export function parseTarget(json: unknown, env: Env | null, source: string): Target {
  const fail = (what: string): never => {
    throw new TargetError(`${source}: ${what}`);
  };
  const obj = (value: unknown, where: string) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : fail(`${where} must be an object`);
  const str = (value: unknown, where: string) =>
    typeof value === 'string' && value !== '' ? value : fail(`${where} must be a non-empty string`);
  const key = (value: unknown, where: string) =>
    typeof value === 'string' && KEY.test(value)
      ? value
      : fail(`${where} must be a 40-hex key, got ${JSON.stringify(value)}`);
  const keys = (value: unknown, where: string) =>
    Array.isArray(value) && value.length > 0
      ? value.map((v, i) => key(v, `${where}[${i}]`))
      : fail(`${where} must be a non-empty array of keys`);
  const gradingPath = <P extends string>(value: unknown, spellings: readonly P[], where: string) =>
    value === undefined
      ? (spellings[0] as P)
      : spellings.includes(value as P)
        ? (value as P)
        : fail(`${where} must be ${spellings.join(' or ')}, got ${JSON.stringify(value)}`);
  const scoringKey = (value: unknown, where: string) =>
    value === undefined ? {} : { scoring_algorithm_key: value === null ? null : str(value, where) };
  // Grading and its rules compare items with each other: one item leaves nothing to compare.
  const list = (value: unknown, where: string, shape: string) =>
    Array.isArray(value) && value.length >= 2
      ? value
      : fail(
          `${where} must list at least 2 ${shape}, 10 recommended; got ${Array.isArray(value) ? value.length : value === undefined ? 'none' : JSON.stringify(value)}`,
        );
  // `grading_algorithm_key` is the explicit name of `algorithm_key`: either, or both the same.
  const gradingKey = (side: Record<string, unknown>, where: string) => {
    const { algorithm_key: plain, grading_algorithm_key: explicit } = side;
    if (plain !== undefined && explicit !== undefined && plain !== explicit)
      fail(
        `${where}.algorithm_key and ${where}.grading_algorithm_key name the same thing (the grading algorithm) and differ: keep one, got ${JSON.stringify(plain)} and ${JSON.stringify(explicit)}`,
      );
    return plain === undefined && explicit !== undefined
      ? str(explicit, `${where}.grading_algorithm_key`)
      : str(plain, `${where}.algorithm_key`);
  };

  const root = obj(json, 'the target');
  const p = obj(root.profiles, 'profiles');
  const j = obj(root.jobs, 'jobs');
  const headers: Record<string, string> = {};
  const headerTemplates: Record<string, string> = {};
  if (root.headers !== undefined) {
    for (const [name, value] of Object.entries(obj(root.headers, 'headers'))) {
      const text = str(value, `headers.${name}`);
      if (env !== null) headerTemplates[name] = text;
      headers[name] =
        env === null
          ? literal(text, `headers.${name}`, fail)
          : expandEnv(text, env, `headers.${name}`);
    }
  }
  return {
    headers,
    headerTemplates,
    profiles: {
      algorithm_key: gradingKey(p, 'profiles'),
      ...scoringKey(p.scoring_algorithm_key, 'profiles.scoring_algorithm_key'),
      source_keys: keys(p.source_keys, 'profiles.source_keys'),
      board_key: key(p.board_key, 'profiles.board_key'),
      job_key: key(p.job_key, 'profiles.job_key'),
      profile_ids: list(
        p.profile_ids,
        'profiles.profile_ids',
        'profiles ({source_key, profile_key})',
      ).map((item, i) => {
        const o = obj(item, `profiles.profile_ids[${i}]`);
        return {
          source_key: key(o.source_key, `profiles.profile_ids[${i}].source_key`),
          profile_key: key(o.profile_key, `profiles.profile_ids[${i}].profile_key`),
        };
      }),
      grading_path: gradingPath(p.grading_path, GRADING_PATHS.profiles, 'profiles.grading_path'),
    },
    jobs: {
      algorithm_key: gradingKey(j, 'jobs'),
      ...scoringKey(j.scoring_algorithm_key, 'jobs.scoring_algorithm_key'),
      board_keys: keys(j.board_keys, 'jobs.board_keys'),
      source_key: key(j.source_key, 'jobs.source_key'),
      profile_key: key(j.profile_key, 'jobs.profile_key'),
      job_ids: list(j.job_ids, 'jobs.job_ids', 'jobs ({board_key, job_key})').map((item, i) => {
        const o = obj(item, `jobs.job_ids[${i}]`);
        return {
          board_key: key(o.board_key, `jobs.job_ids[${i}].board_key`),
          job_key: key(o.job_key, `jobs.job_ids[${i}].job_key`),
        };
      }),
      grading_path: gradingPath(j.grading_path, GRADING_PATHS.jobs, 'jobs.grading_path'),
    },
  };
}
