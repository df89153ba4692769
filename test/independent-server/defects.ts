/** The ways this server can be told to break, each one a bug a real backend could have. */
export const DEFECTS = {
  'jobs-limit-20': {
    kind: 'defaults',
    what: 'Job searching pages hold 20 items when no limit is sent, instead of 30.',
  },
  'order-asc-default': {
    kind: 'defaults',
    what: 'Searching and scoring order ascending when no order_by is sent, instead of descending.',
  },
  'use-algorithm-default-0': {
    kind: 'defaults',
    what: 'Scoring without use_algorithm or use_agent searches only and returns no predictions.',
  },
  'sort-updated-default': {
    kind: 'defaults',
    what: 'Profile searching sorts by updated_at when no sort_by is sent, instead of created_at.',
  },
  'no-singular-grading': {
    kind: 'paths',
    what: 'The SDK paths /profile/grading and /job/grading are not routed: an HTML 404.',
  },
  'wrong-method-html-404': {
    kind: 'paths',
    what: 'A method a documented path does not take gets an HTML 404 instead of a JSON 405.',
  },
  'no-allow-header': {
    kind: 'paths',
    what: 'A 405 answer carries no Allow header.',
  },
  'unknown-path-html': {
    kind: 'paths',
    what: 'An unknown path gets an HTML 404 instead of the JSON error envelope.',
  },
  'scoring-requires-algorithm-key': {
    kind: 'back-compat',
    what: 'Scoring without algorithm_key is refused (400), even when agent_key is sent.',
  },
  'single-grading-refused': {
    kind: 'back-compat',
    what: 'Grading one item by key or reference (single mode) is refused with a 400.',
  },
  'old-sort-names-refused': {
    kind: 'back-compat',
    what: 'The older sort_by names (date, date_reception, date_creation, score_semantic, score_predictive) are refused with a 400.',
  },
  'created-range-unchecked': {
    kind: 'cross-parameter',
    what: 'created_at_min after created_at_max is accepted and answered with an empty list.',
  },
  'timestamp-range-unchecked': {
    kind: 'cross-parameter',
    what: 'timestamp_start after timestamp_end is accepted and answered with an empty list.',
  },
  'distance-without-point-accepted': {
    kind: 'cross-parameter',
    what: 'location_distance without location_geopoint is accepted and ignored instead of a 400.',
  },
  'geo-ignored': {
    kind: 'filters',
    what: 'location_geopoint and location_distance are accepted but do not filter.',
  },
  'tags-ignored': {
    kind: 'filters',
    what: 'tags_included, tags_excluded and tags are accepted but do not filter.',
  },
  'languages-ignored': {
    kind: 'filters',
    what: 'languages is accepted but does not filter.',
  },
  'skills-ignored': {
    kind: 'filters',
    what: 'skills is accepted but does not filter.',
  },
  'stage-ignored': {
    kind: 'filters',
    what: 'stage is accepted but does not filter.',
  },
  'non-ascii-500': {
    kind: 'odd-text',
    what: 'A text parameter holding a non-ASCII character makes the server fail with a 500.',
  },
  'quote-500': {
    kind: 'odd-text',
    what: 'A text parameter holding a quote (" or \') makes the server fail with a 500.',
  },
  'long-text-500': {
    kind: 'odd-text',
    what: 'A text parameter of 200 characters or more makes the server fail with a 500.',
  },
  'long-url-html-414': {
    kind: 'limits',
    what: 'A URL over the limit gets an HTML 414 page, as a front proxy answers, not the JSON envelope.',
  },
  'large-body-500': {
    kind: 'limits',
    what: 'A JSON body over the limit is read whole and the server fails with a 500 instead of a 413.',
  },
  'slow-jobs-scoring': {
    kind: 'latency',
    what: 'Every /jobs/scoring request waits slowMs (2.5 s unless told) before it is answered.',
  },
  'slow-grading': {
    kind: 'latency',
    what: 'Every profile grading request waits slowMs (2.5 s unless told) before it is answered.',
  },
} as const satisfies Record<
  string,
  {
    kind:
      | 'defaults'
      | 'paths'
      | 'back-compat'
      | 'cross-parameter'
      | 'filters'
      | 'odd-text'
      | 'limits'
      | 'latency';
    what: string;
  }
>;

export type DefectName = keyof typeof DEFECTS;
export type Defects = ReadonlySet<DefectName>;

/** Whether a text a client sent would trip one of the odd-text defects. */
export const tripsOnText = (texts: readonly string[], defects: Defects): boolean =>
  texts.some(
    (text) =>
      (defects.has('non-ascii-500') && [...text].some((c) => (c.codePointAt(0) ?? 0) > 127)) ||
      (defects.has('quote-500') && /["']/.test(text)) ||
      (defects.has('long-text-500') && [...text].length >= 200),
  );
