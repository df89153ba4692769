// Generated from contract/openapi.yaml by `npm run types`. Do not edit.

/** The default of each query parameter the contract gives one, by name. */
export const PARAMETER_DEFAULTS = {
  limit: 30,
  order_by: 'desc',
  page: 1,
  return_job: false,
  return_profile: false,
  sort_by: 'created_at',
  use_agent: 1,
  use_algorithm: 1,
} as const;
