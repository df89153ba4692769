import { jsonDumps, type PyValue, REQUESTS_HEADERS, requestsQuery } from './python.ts';

/**
 * The requests the official Python SDK (`Riminder/python-hrflow-api`) sends for the six
 * operations, rebuilt from reading its source: v4.3.0 (`hrflow/hrflow.py`, `core/validation.py`,
 * `profile/{searching,scoring,grading}.py`, `job/{searching,scoring}.py`), the open branch that
 * moves searching and scoring to POST (PR #30) and the one that adds `job/grading` (PR #31).
 * Each method returns the `Request` the SDK would send; `read` is its `validate_response`.
 */
export type PythonSdkOptions = {
  /** `Hrflow(api_url=…)`: the SDK appends paths to it as text, so it ends with `/`. */
  apiUrl: string;
  apiSecret: string;
  apiUser: string;
  /** `get` as in v4.3.0; `post` as on the branch of PR #30 (searching and scoring only). */
  listsBy?: 'get' | 'post';
};

type Kwargs = Record<string, PyValue>;

const KEY_REGEX = /^[0-9a-f]{40}$/;
const STAGE_VALUES = [null, 'new', 'yes', 'later', 'no'];
const SORT_BY_VALUES = [
  'created_at',
  'updated_at',
  'location',
  'location_experience',
  'location_education',
  'searching',
  'scoring',
];
const ORDER_BY_VALUES = [null, 'desc', 'asc'];

/** The SDK raises these before sending anything. */
export class PythonSdkError extends Error {}

function validateValue(value: PyValue, values: PyValue[], message: string): PyValue {
  if (!values.includes(value)) throw new PythonSdkError(`${message} must be in ${values}`);
  return value;
}

/** `validate_key`: with a regex, `re.match` on `None` raises a TypeError. */
function validateKey(what: string, value: PyValue, regex?: RegExp): PyValue {
  if (typeof value !== 'string' && value !== null)
    throw new PythonSdkError(`${what} key must be string`);
  if (regex !== undefined) {
    if (value === null) throw new PythonSdkError('expected string or bytes-like object');
    if (!regex.test(value)) throw new PythonSdkError(`${what} key must match ${regex}`);
  }
  return value;
}

function validateProviderKeys(value: PyValue): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string'))
    throw new PythonSdkError('provider_ids must contain list of strings');
  return value as string[];
}

function validateInt(name: string, value: PyValue): PyValue {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new PythonSdkError(`${name} must be 'int'`);
  return value;
}

/** The arguments every `list` method takes after its own. */
type Listing = {
  stage?: PyValue;
  page?: number;
  limit?: number;
  sort_by?: string;
  order_by?: PyValue;
  kwargs?: Kwargs;
};

/** `stage`, `limit`, `page`, `sort_by`, `order_by`, validated and defaulted as `list` does. */
function listing(args: Listing, orderMessage: string): Kwargs {
  return {
    stage: validateValue(args.stage ?? null, STAGE_VALUES, 'stage'),
    limit: validateInt('limit', args.limit ?? 30),
    page: validateInt('page', args.page ?? 1),
    sort_by: validateValue(args.sort_by ?? 'created_at', SORT_BY_VALUES, 'sort by'),
    order_by: validateValue(args.order_by ?? null, ORDER_BY_VALUES, orderMessage),
  };
}

export class PythonHrflow {
  readonly #options: PythonSdkOptions;

  constructor(options: PythonSdkOptions) {
    this.#options = options;
  }

  get #auth(): Record<string, string> {
    return { 'X-API-KEY': this.#options.apiSecret, 'X-USER-EMAIL': this.#options.apiUser };
  }

  /** `Hrflow.get`: lists are `json.dumps`ed (`_validate_args`), then `requests.get(params=…)`. */
  #get(resource: string, params: Kwargs): Request {
    const url = `${this.#options.apiUrl}${resource}`;
    const validated = Object.fromEntries(
      Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? jsonDumps(v) : v]),
    );
    const query = Object.keys(params).length > 0 ? requestsQuery(validated) : '';
    return new Request(query === '' ? url : `${url}?${query}`, {
      headers: { ...REQUESTS_HEADERS, ...this.#auth },
    });
  }

  /** `Hrflow.post(resource, json=data)`: `requests` sends `json.dumps(data)`. */
  #post(resource: string, data: Kwargs): Request {
    return new Request(`${this.#options.apiUrl}${resource}`, {
      method: 'POST',
      headers: { ...REQUESTS_HEADERS, ...this.#auth, 'Content-Type': 'application/json' },
      body: jsonDumps(data),
    });
  }

  #list(resource: string, params: Kwargs): Request {
    return this.#options.listsBy === 'post'
      ? this.#post(resource, params)
      : this.#get(resource, params);
  }

  readonly profile = {
    searching: {
      list: (
        args: {
          source_keys: string[];
        } & Listing,
      ): Request =>
        this.#list('profiles/searching', {
          source_keys: jsonDumps(validateProviderKeys(args.source_keys)),
          ...listing(args, 'oder by'),
          ...args.kwargs,
        }),
    },
    scoring: {
      list: (
        args: {
          source_keys: string[];
          board_key: string;
          job_key: string;
          use_agent?: PyValue;
          agent_key?: PyValue;
        } & Listing,
      ): Request =>
        this.#list('profiles/scoring', {
          source_keys: jsonDumps(validateProviderKeys(args.source_keys)),
          board_key: validateKey('Board', args.board_key),
          job_key: validateKey('Job', args.job_key),
          use_agent: args.use_agent ?? 1,
          agent_key: validateKey('Agent', args.agent_key ?? null),
          ...listing(args, 'order by'),
          ...args.kwargs,
        }),
    },
    grading: {
      /** `profile/grading.py`: GET `profile/grading`, one profile (single mode). */
      get: (args: {
        algorithm_key: string;
        source_key: string;
        board_key: string;
        profile_key?: string;
        profile_reference?: string;
        job_key?: string;
        job_reference?: string;
      }): Request =>
        this.#get('profile/grading', {
          algorithm_key: args.algorithm_key,
          source_key: validateKey('Source', args.source_key, KEY_REGEX),
          profile_key: validateKey('Key', args.profile_key ?? null, KEY_REGEX),
          profile_reference: args.profile_reference ?? null,
          board_key: validateKey('Board', args.board_key, KEY_REGEX),
          job_key: validateKey('Key', args.job_key ?? null, KEY_REGEX),
          job_reference: args.job_reference ?? null,
        }),
    },
  };

  readonly job = {
    searching: {
      list: (
        args: {
          board_keys: string[];
        } & Listing,
      ): Request =>
        this.#list('jobs/searching', {
          board_keys: jsonDumps(validateProviderKeys(args.board_keys)),
          ...listing(args, 'order by'),
          ...args.kwargs,
        }),
    },
    scoring: {
      list: (
        args: {
          board_keys: string[];
          source_key: string;
          profile_key: string;
          use_agent?: PyValue;
          agent_key?: PyValue;
        } & Listing,
      ): Request =>
        this.#list('jobs/scoring', {
          board_keys: jsonDumps(validateProviderKeys(args.board_keys)),
          source_key: validateKey('Source', args.source_key),
          profile_key: validateKey('Profile', args.profile_key),
          use_agent: args.use_agent ?? null,
          agent_key: validateKey('Agent', args.agent_key ?? null),
          ...listing(args, 'order by'),
          ...args.kwargs,
        }),
    },
    grading: {
      /** `job/grading.py` (PR #31): GET `job/grading`, one job for one profile. */
      get: (args: {
        algorithm_key: string;
        board_key: string;
        source_key: string;
        job_key?: string;
        job_reference?: string;
        profile_key?: string;
        profile_reference?: string;
      }): Request =>
        this.#get('job/grading', {
          algorithm_key: args.algorithm_key,
          board_key: validateKey('Board', args.board_key, KEY_REGEX),
          job_key: validateKey('Key', args.job_key ?? null, KEY_REGEX),
          job_reference: args.job_reference ?? null,
          source_key: validateKey('Source', args.source_key, KEY_REGEX),
          profile_key: validateKey('Key', args.profile_key ?? null, KEY_REGEX),
          profile_reference: args.profile_reference ?? null,
        }),
    },
  };
}

/**
 * `validate_response`: anything whose Content-Type is not exactly `application/json` becomes a
 * generic error; otherwise the parsed JSON, whatever the status, read as `Answer`, the answer the
 * caller expects (a generic error is read so too: its `code` is what a test checks first).
 */
export async function readAsPythonSdk<Answer = unknown>(response: Response): Promise<Answer> {
  if (response.headers.get('content-type') !== 'application/json') {
    const generic = { code: response.status, message: 'A generic error occurred on the server' };
    return generic as Answer;
  }
  return response.json();
}

/**
 * The SDK's own test model of `meta` (`tests/utils/schemas.py`, `Pagination`): every field at
 * least 0, `page <= maxPage`, and `total / maxPage` a page size that `count` agrees with.
 */
export function pythonSdkPaginationHolds(meta: Record<string, number>): boolean {
  const { page, maxPage, count, total } = meta as Record<string, number>;
  if ([page, maxPage, count, total].some((n) => !Number.isInteger(n) || (n as number) < 0))
    return false;
  const perPage = (total as number) / (maxPage as number);
  if (!Number.isFinite(perPage) || (page as number) > (maxPage as number)) return false;
  if (page === maxPage) return (count as number) <= perPage;
  return (
    Math.ceil((total as number) / (count as number)) === maxPage && (count as number) >= perPage
  );
}
