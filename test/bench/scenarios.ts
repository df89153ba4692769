import { CITIES } from '../../mocks/vocabularies/cities.ts';
import type { LoadRequest } from './load.ts';

type Target = {
  profiles: {
    algorithm_key: string;
    source_keys: string[];
    board_key: string;
    job_key: string;
    profile_ids: unknown[];
  };
};

const KEYWORDS = ['python', 'sql', 'excel', 'english', 'negotiation', 'patient', 'figma', 'budget'];

/**
 * Keyword + location + sort searches over many cities, keywords, radii and pages: more distinct
 * queries than a run sends twice, so the store is measured, not a cache.
 */
function searches(target: Target): Record<string, unknown>[] {
  const queries: Record<string, unknown>[] = [];
  for (const [c, city] of CITIES.entries()) {
    for (const [k, keyword] of KEYWORDS.entries()) {
      queries.push({
        source_keys: target.profiles.source_keys,
        text_keywords: [keyword],
        location_geopoint: { lat: city.lat, lng: city.lng },
        location_distance: [50, 100, 200][(c + k) % 3],
        sort_by: (c + k) % 2 === 0 ? 'updated_at' : 'location',
        limit: 30,
      });
    }
  }
  return queries;
}

/** Profile keys of the mock, paged out of searching, to grade in ever different batches. */
async function profileIds(base: string, sourceKeys: string[]) {
  const ids: { source_key: string; profile_key: string }[] = [];
  for (let page = 1; ids.length < 2000; page++) {
    const query = new URLSearchParams({
      source_keys: JSON.stringify(sourceKeys),
      limit: '100',
      page: String(page),
    });
    const body = (await (await fetch(`${base}/profiles/searching?${query}`)).json()) as {
      data: { profiles: { key: string; source_key: string }[] };
      meta: { maxPage: number };
    };
    ids.push(...body.data.profiles.map((p) => ({ source_key: p.source_key, profile_key: p.key })));
    if (page >= body.meta.maxPage) break;
  }
  return ids;
}

/** 400 batches of 10 profiles, no two alike: grading answered fresh every time. */
function gradingBatches(
  t: Target['profiles'],
  ids: { source_key: string; profile_key: string }[],
  full: boolean,
) {
  return Array.from({ length: DISTINCT }, (_, i): LoadRequest => {
    const batch = Array.from({ length: 10 }, (_, k) => ids[(i * 7 + k * 37) % ids.length]);
    const query = new URLSearchParams({
      algorithm_key: t.algorithm_key,
      board_key: t.board_key,
      job_key: t.job_key,
      profile_ids: JSON.stringify(batch),
    });
    return {
      method: 'GET',
      path: `/profiles/grading?${query}${full ? '&return_profile=true' : ''}`,
    };
  });
}

/** How many different requests the uncached rows cycle through. */
const DISTINCT = 400;

export type Scenario = {
  name: string;
  /** One request, sent again and again: what the answer cache serves. */
  one: LoadRequest;
  /** Different requests, none sent twice in a row: what the store answers. */
  distinct: LoadRequest[];
};

export async function scenarios(base: string, profiles: number): Promise<Scenario[]> {
  const target = ((await (await fetch(`${base}/_mock/target`)).json()) as { data: Target }).data;
  const t = target.profiles;
  const post = (path: string, body: Record<string, unknown>): LoadRequest => ({
    method: 'POST',
    path,
    body: JSON.stringify(body),
  });
  if (profiles <= 1000) {
    const ids = await profileIds(base, t.source_keys);
    const minimal = gradingBatches(t, ids, false);
    const full = gradingBatches(t, ids, true);
    const searchingBodies = searches(target).map((body, i) => ({
      ...body,
      // Wide enough to find 30 in most places; sorted by recency or distance.
      location_distance: [1500, 2500, 4000][i % 3],
      sort_by: i % 2 === 0 ? 'updated_at' : 'location',
    }));
    const searching = searchingBodies.map((body) => post('/profiles/searching', body));
    return [
      {
        name: 'GET grading, 10 profiles, minimal',
        one: minimal[0] as LoadRequest,
        distinct: minimal,
      },
      { name: 'GET grading, 10 profiles, full', one: full[0] as LoadRequest, distinct: full },
      {
        name: 'POST searching 1,000: 30 results, keyword + location + sort',
        one: post('/profiles/searching', {
          source_keys: t.source_keys,
          text_keywords: ['english'],
          location_geopoint: { lat: 48.8566, lng: 2.3522 },
          location_distance: 1500,
          sort_by: 'updated_at',
          limit: 30,
        }),
        distinct: searching,
      },
    ];
  }
  const scoring = { algorithm_key: 'scorer', board_key: t.board_key, job_key: t.job_key };
  const searching = searches(target).map((body) => post('/profiles/searching', body));
  const scored = searches(target).map((body) =>
    post('/profiles/scoring', { ...body, ...scoring, sort_by: 'scoring' }),
  );
  return [
    {
      name: 'POST searching 100,000: keyword + location + sort, 400 queries',
      one: searching[0] as LoadRequest,
      distinct: searching,
    },
    {
      name: 'POST scoring a job over 100,000: keyword + location, by score, 400 queries',
      one: scored[0] as LoadRequest,
      distinct: scored,
    },
  ];
}
