import { describe, expect, it } from 'vitest';
import { LIVE_RULES, type LiveExchange, LiveJudge } from '../../contract/suite/live-rules.ts';
import { loadContract } from '../../contract/suite/openapi.ts';
import type { ProfilesGrading, ProfilesSearching } from '../support/answers.ts';
import { obj } from '../support/json-reads.ts';
import { asked, edited, exchange, newJudge, params, rulesOf } from './live-exchanges.ts';

// One judge for the one-exchange rules: remembering nothing, it compares no two exchanges.
const shared = newJudge({ remember: 0 });
const judged = (e: LiveExchange) => shared.judge(e);
const contract = loadContract();
const error = (status: number, message = 'failed') => ({ code: status, message });

describe('the live judge on answers the contract allows', () => {
  it.each([
    ['GET', '/profiles/grading', params.gradeProfiles],
    ['GET', '/jobs/grading', params.gradeJobs],
    ['GET', '/profile/grading', params.gradeProfiles],
    ['GET', '/profiles/searching', params.searchProfiles],
    ['POST', '/profiles/searching', params.searchProfiles],
    ['GET', '/profiles/scoring', params.scoreProfiles],
  ] as const)('finds nothing wrong with the mock answering %s %s', async (method, path, ps) => {
    expect(judged(await asked(method, path, ps()))).toEqual([]);
  });

  it('names every rule it judges, CLIENT first, and counts a check of each that applies', async () => {
    const judge = newJudge();
    judge.judge(await asked('GET', '/profiles/scoring', params.scoreProfiles()));
    expect(LIVE_RULES.map((r) => r.id)).toEqual([...judge.counts.keys()]);
    const checked = [...judge.counts].filter(([, c]) => c.checks > 0).map(([id]) => id);
    expect(checked).toEqual(['CLIENT', 'ENV', 'NO-5XX', 'OLD-CLIENT', 'GET-KEPT', 'PAGE', 'PRED']);
    expect([...judge.counts.values()].every((c) => c.violations === 0)).toBe(true);
  });
});

describe('the contract it judges by', () => {
  it('is the one it is given', () => {
    const doc = structuredClone(contract);
    delete obj(doc.paths['/profiles/searching']).post;
    const sent = { method: 'POST', path: '/profiles/searching', params: params.searchProfiles() };
    const judge = new LiveJudge({ contract: doc, history: [] });
    expect(rulesOf(judge.judge(exchange(sent, 400, error(400))))).toContain('CLIENT');
  });
});

describe('CLIENT: the request', () => {
  it('reports a GET without a required parameter, as the client side', () => {
    const [found] = judged(exchange({ path: '/profiles/searching' }, 400, error(400)));
    expect(found).toMatchObject({ rule: 'CLIENT', side: 'client', got: 'no source_keys' });
    expect(found?.request).toBe('GET /profiles/searching?');
  });

  it('reports a POST body without a required parameter', () => {
    const sent = { method: 'POST', path: '/profiles/searching', params: { limit: 3 } };
    expect(judged(exchange(sent, 400, error(400)))[0]).toMatchObject({ got: 'no source_keys' });
  });

  it('reports a method the path lacks, naming the methods it has', () => {
    const sent = { method: 'DELETE', path: '/profiles/searching', params: params.searchProfiles() };
    const found = judged(exchange(sent, 405, error(405), allowGet));
    expect(found).toEqual([
      expect.objectContaining({ rule: 'CLIENT', side: 'client', expected: expect.any(String) }),
    ]);
    expect(found[0]?.expected).toMatch(/\(GET, POST\)$/);
    expect(found[0]?.got).toBe('DELETE');
  });

  it('judges only the method when the parameters could not be read', () => {
    const sent = { path: '/profiles/searching', params: undefined };
    expect(rulesOf(judged(exchange(sent, 400, error(400))))).toEqual([]);
  });
});

const allowGet = { 'content-type': 'application/json', allow: 'GET, POST' };

describe('ENV: the answer in the envelope', () => {
  const search = { path: '/profiles/searching', params: params.searchProfiles() };

  it('reports an answer that is not JSON', () => {
    const found = judged(exchange(search, 200, 'oops', { 'content-type': 'text/plain' }));
    expect(found).toEqual([expect.objectContaining({ rule: 'ENV', side: 'server' })]);
    expect(found[0]?.expected).toBe('Content-Type application/json');
  });

  it('reports a code other than the status', () => {
    const found = judged(exchange(search, 400, error(200)));
    expect(found).toContainEqual(
      expect.objectContaining({ rule: 'ENV', expected: 'code = the HTTP status 400' }),
    );
  });

  it('reports an answer to a method the path lacks other than a 405 or a 404', () => {
    const sent = { method: 'DELETE', path: '/profiles/searching', params: {} };
    const found = judged(exchange(sent, 200, error(200)));
    expect(found.map((v) => [v.rule, v.got])).toEqual([
      ['CLIENT', 'DELETE'],
      ['ENV', '200'],
    ]);
    expect(found[1]?.expected).toBe('a 405 (or 404) to a method the path lacks');
  });

  it('takes a 405 listing GET, or a 404, to a method the path lacks', () => {
    const sent = { method: 'POST', path: '/profiles/grading', params: params.gradeProfiles() };
    expect(rulesOf(judged(exchange(sent, 405, error(405), allowGet)))).toEqual(['CLIENT']);
    expect(rulesOf(judged(exchange(sent, 404, error(404))))).toEqual(['CLIENT']);
  });

  it('reports a 405 whose Allow does not list GET, or that has none', () => {
    const sent = { method: 'POST', path: '/profiles/grading', params: params.gradeProfiles() };
    const posted = { 'content-type': 'application/json', allow: 'POST, GETTING' };
    const [, wrong] = judged(exchange(sent, 405, error(405), posted));
    expect(wrong).toMatchObject({ rule: 'ENV', expected: 'an Allow header listing GET' });
    expect(wrong?.got).toBe('POST, GETTING');
    expect(judged(exchange(sent, 405, error(405)))[1]?.got).toBe('none');
  });

  it('judges an undocumented exchange by CLIENT, ENV and NO-5XX only', async () => {
    const answered = await asked('GET', '/profiles/grading', params.gradeProfiles());
    const judge = newJudge();
    judge.judge({ ...answered, method: 'POST' });
    const checked = [...judge.counts].filter(([, c]) => c.checks > 0).map(([id]) => id);
    expect(checked).toEqual(['CLIENT', 'ENV', 'NO-5XX']);
  });
});

describe('NO-5XX: no answer is a 5xx', () => {
  const search = { path: '/profiles/searching', params: params.searchProfiles() };

  // The proxy's own 502 and 504 (the upstream unreachable or silent) never reach the judge: an
  // upstream's 502, 503 or 504 is its answer, and breaks the rule as a 500 does.
  it.each([500, 502, 503, 504, 599])('reports a %i answered by the upstream', (status) => {
    const found = judged(exchange(search, status, error(status)));
    expect(found).toContainEqual(
      expect.objectContaining({
        rule: 'NO-5XX',
        side: 'server',
        expected: 'an answer other than a 5xx',
        got: `status ${status}`,
      }),
    );
  });

  it('takes a 4xx', () => {
    const judge = newJudge();
    expect(rulesOf(judge.judge(exchange(search, 499, error(499))))).not.toContain('NO-5XX');
    expect(judge.counts.get('NO-5XX')).toEqual({ checks: 1, violations: 0 });
  });

  it('judges an exchange the contract does not document too', () => {
    const sent = { method: 'DELETE', path: '/jobs/searching', params: {} };
    expect(rulesOf(judged(exchange(sent, 503, error(503))))).toContain('NO-5XX');
  });
});

describe('GET-KEPT: searching and scoring still answer GET', () => {
  it('reports a 405 to a GET of searching', () => {
    const found = judged(exchange({ path: '/jobs/searching', params: {} }, 405, error(405)));
    expect(found).toContainEqual(
      expect.objectContaining({
        rule: 'GET-KEPT',
        expected: 'GET answered (not 405)',
        got: 'status 405',
      }),
    );
  });

  it('leaves a 405 to a POST, or to a GET of grading, to other rules', () => {
    const post = { method: 'POST', path: '/jobs/searching', params: {} };
    expect(rulesOf(judged(exchange(post, 405, error(405))))).not.toContain('GET-KEPT');
    const grading = { path: '/jobs/grading', params: params.gradeJobs() };
    expect(rulesOf(judged(exchange(grading, 405, error(405))))).not.toContain('GET-KEPT');
  });
});

/** A profiles answer as a test breaks it: its items not read yet. */
type Unchecked = { data: { profiles: unknown[] } };

describe('OLD-CLIENT: a GET an old client could send', () => {
  it('reports an answer invalid under a published contract', async () => {
    const e = await asked<ProfilesGrading>('GET', '/profiles/grading', params.gradeProfiles());
    const renamed = edited(e, (b: Unchecked) => {
      for (const item of b.data.profiles) {
        const entry = obj(item);
        entry.ref = entry.reference;
        delete entry.reference;
      }
    });
    const found = judged(renamed).filter((v) => v.rule === 'OLD-CLIENT');
    expect(found).toHaveLength(1);
    expect(found[0]?.expected).toBe('an answer valid under history/v1.0.0.yaml');
    expect(found[0]?.got).toMatch(/reference/);
    expect(found[0]?.got.split('; ')).toHaveLength(3);
    expect(rulesOf(newJudge({ history: [] }).judge(renamed))).not.toContain('OLD-CLIENT');
  });

  it('leaves out a request naming a parameter no published contract has', async () => {
    const ps = { ...params.gradeProfiles(), return_profile: 'false' };
    const e = edited(
      await asked<ProfilesGrading>('GET', '/profiles/grading', ps),
      (b: Unchecked) => {
        obj(b.data.profiles[0]).ref = 'x';
      },
    );
    expect(rulesOf(judged(e))).not.toContain('OLD-CLIENT');
  });

  it('leaves out a POST, and a request whose parameters could not be read', async () => {
    const e = await asked<ProfilesSearching>(
      'POST',
      '/profiles/searching',
      params.searchProfiles(),
    );
    const broken = edited(e, (b: Unchecked) => (obj(b.data.profiles[0]).key = 1));
    expect(rulesOf(judged(broken))).not.toContain('OLD-CLIENT');
    const unread = {
      ...edited(e, (b: Unchecked) => (obj(b.data.profiles[0]).key = 1)),
      method: 'GET',
    };
    expect(rulesOf(judged({ ...unread, params: undefined }))).not.toContain('OLD-CLIENT');
  });
});
