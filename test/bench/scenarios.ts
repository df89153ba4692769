import { CITIES } from '../../mocks/vocabularies/cities.ts';
import type { LoadRequest } from './load.ts';

export type Scenario = { name: string; requests: LoadRequest[] };

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

export async function scenarios(base: string, profiles: number): Promise<Scenario[]> {
  const target = ((await (await fetch(`${base}/_mock/target`)).json()) as { data: Target }).data;
  const t = target.profiles;
  const grading = new URLSearchParams({
    algorithm_key: t.algorithm_key,
    board_key: t.board_key,
    job_key: t.job_key,
    profile_ids: JSON.stringify(t.profile_ids.slice(0, 10)),
  });
  const post = (path: string, body: Record<string, unknown>): LoadRequest => ({
    method: 'POST',
    path,
    body: JSON.stringify(body),
  });
  if (profiles <= 1000) {
    return [
      {
        name: 'GET grading, 10 profiles, minimal',
        requests: [{ method: 'GET', path: `/profiles/grading?${grading}` }],
      },
      {
        name: 'GET grading, 10 profiles, full',
        requests: [{ method: 'GET', path: `/profiles/grading?${grading}&return_profile=true` }],
      },
      {
        name: 'POST searching 1,000: 30 results, keyword + location + sort',
        requests: [
          post('/profiles/searching', {
            source_keys: t.source_keys,
            text_keywords: ['english'],
            location_geopoint: { lat: 48.8566, lng: 2.3522 },
            location_distance: 1500,
            sort_by: 'updated_at',
            limit: 30,
          }),
        ],
      },
    ];
  }
  const scoring = { algorithm_key: 'scorer', board_key: t.board_key, job_key: t.job_key };
  return [
    {
      name: 'POST searching 100,000: keyword + location + sort, 400 queries',
      requests: searches(target).map((body) => post('/profiles/searching', body)),
    },
    {
      name: 'POST scoring a job over 100,000: keyword + location, by score, 400 queries',
      requests: searches(target).map((body) =>
        post('/profiles/scoring', { ...body, ...scoring, sort_by: 'scoring' }),
      ),
    },
  ];
}
