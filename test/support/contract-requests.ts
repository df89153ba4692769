/**
 * One valid request per operation of the contract, built from the keys of the contract's own
 * examples, and the same request without a required parameter. Used to exercise schema-only
 * servers (Prism) where any well-formed key is accepted.
 */
export const EXAMPLE_KEYS = {
  source: '12feac8fdc9c3b5f6c463c8f3a705d17d2581331',
  board: '6ccf32b97e48e95ebffd022edbb7614eb831aaf4',
  profile: '51a2ef4240eff941c66c4aed73cec3efa725e53e',
  job: 'b92b51350515ae10f99b69338aeb1acbe9670c75',
} as const;

export type ContractRequest = {
  operationId: string;
  method: 'get' | 'post';
  path: string;
  params: Record<string, unknown>;
  /** The parameter to drop for a request that misses a required one. */
  required: string;
};

const k = EXAMPLE_KEYS;

export const CONTRACT_REQUESTS: ContractRequest[] = [
  {
    operationId: 'gradeProfiles',
    method: 'get',
    path: '/profiles/grading',
    params: {
      algorithm_key: 'grader-hrflow-profiles',
      board_key: k.board,
      job_key: k.job,
      profile_ids: [{ source_key: k.source, profile_key: k.profile }],
    },
    required: 'algorithm_key',
  },
  {
    operationId: 'gradeJobs',
    method: 'get',
    path: '/jobs/grading',
    params: {
      algorithm_key: 'grader-hrflow-jobs',
      source_key: k.source,
      profile_key: k.profile,
      job_ids: [{ board_key: k.board, job_key: k.job }],
    },
    required: 'source_key',
  },
  ...(['get', 'post'] as const).flatMap((method): ContractRequest[] => [
    {
      operationId: method === 'get' ? 'searchProfiles' : 'searchProfilesPost',
      method,
      path: '/profiles/searching',
      params: { source_keys: [k.source], text_keywords: ['python'], limit: 10 },
      required: 'source_keys',
    },
    {
      operationId: method === 'get' ? 'scoreProfiles' : 'scoreProfilesPost',
      method,
      path: '/profiles/scoring',
      params: {
        algorithm_key: 'scorer-hrflow-profiles',
        board_key: k.board,
        job_key: k.job,
        source_keys: [k.source],
        sort_by: 'scoring',
      },
      required: 'board_key',
    },
    {
      operationId: method === 'get' ? 'searchJobs' : 'searchJobsPost',
      method,
      path: '/jobs/searching',
      params: { board_keys: [k.board], order_by: 'asc' },
      required: 'board_keys',
    },
    {
      operationId: method === 'get' ? 'scoreJobs' : 'scoreJobsPost',
      method,
      path: '/jobs/scoring',
      params: {
        algorithm_key: 'scorer-hrflow-jobs',
        source_key: k.source,
        profile_key: k.profile,
        board_keys: [k.board],
      },
      required: 'board_keys',
    },
  ]),
  {
    operationId: 'gradeProfilesSingular',
    method: 'get',
    path: '/profile/grading',
    params: {
      algorithm_key: 'grader-hrflow-profiles',
      board_key: k.board,
      job_key: k.job,
      source_key: k.source,
      profile_key: k.profile,
    },
    required: 'board_key',
  },
  {
    operationId: 'gradeJobsSingular',
    method: 'get',
    path: '/job/grading',
    params: {
      algorithm_key: 'grader-hrflow-jobs',
      source_key: k.source,
      profile_key: k.profile,
      board_key: k.board,
      job_key: k.job,
    },
    required: 'algorithm_key',
  },
];

/** Query-string form: lists and objects JSON-encoded into one value. */
export function toQuery(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    search.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return search.toString();
}

export function toRequest(
  base: string,
  request: ContractRequest,
  params = request.params,
): Request {
  const headers = { 'X-API-KEY': 'test-key', 'X-USER-EMAIL': 'ci@example.com' };
  if (request.method === 'get') {
    return new Request(`${base}${request.path}?${toQuery(params)}`, { headers });
  }
  return new Request(`${base}${request.path}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
}

export function without(params: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _, ...rest } = params;
  return rest;
}
