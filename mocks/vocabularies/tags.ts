/** Tag and metadata names and values the fixtures use; searches filter on them. */
export const TAG_NAMES = {
  family: 'family',
  remote: 'remote',
  status: 'status',
  contract: 'contract',
  completeness: 'completeness',
} as const;

export const REMOTE_VALUES = ['yes', 'no', 'hybrid'] as const;

export const STATUS_VALUES = ['new', 'contacted', 'interviewing', 'hired'] as const;

export const CONTRACT_VALUES = ['permanent', 'fixed-term', 'freelance'] as const;

export const CONTACT_ONLY = 'contact-only';

export const METADATA_NAMES = {
  seniority: 'seniority',
  expectedSalary: 'expected_salary',
  noticePeriod: 'notice_period',
} as const;

export const NOTICE_PERIODS = ['none', '2 weeks', '1 month', '2 months', '3 months'] as const;
