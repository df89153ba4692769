import { beforeEach, describe, expect, it } from 'vitest';
import { buildFixtures } from '../../../mocks/build-fixtures.ts';
import { contractAnswerCheck } from '../../../src/api/answer-check.ts';
import { targetOf } from '../../../src/hr/target.ts';
import { steeringControls } from '../../../src/http/admin/controls.ts';
import { createApp } from '../../../src/http/app.ts';
import type { ScenarioAdded, ScenarioList } from '../../support/admin-answers.ts';
import { type ErrorAnswer, errorParams, type ProfilesSearching } from '../../support/answers.ts';
import { query } from '../../support/mock-app.ts';

// A scenario's `body` (answered as it is), `patch` (RFC 7396 over the normal answer) and
// `headers` (what a request must carry), in process; the contract's judge gives the warning.
const data = buildFixtures({ seed: 42, profiles: 60, jobs: 20 });
const app = createApp({ data, log: false, checkAnswer: contractAnswerCheck() });
const unchecked = createApp({ data, log: false });
const { source_keys } = targetOf(app.state.store).profiles;
const searching = (limit = 2) => `/profiles/searching?${query({ source_keys, limit })}`;
const JSON_TYPE = { 'content-type': 'application/json' };
const WARNING = 'x-hrmock-warning';

beforeEach(() => {
  app.state.steering.scenarios.clear();
  unchecked.state.steering.scenarios.clear();
});

async function addScenario<Body = ScenarioAdded>(scenario: unknown, on = app) {
  const response = await on.request('/_mock/scenarios', {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify(scenario),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function normalAnswer(limit = 1): Promise<ProfilesSearching> {
  return (await (await app.request(searching(limit))).json()) as ProfilesSearching;
}

describe('respond: {body}', () => {
  it('answers the body as it is, 200 and JSON by default', async () => {
    await addScenario({ path: '/profiles/searching', respond: { body: { anything: [1, 'two'] } } });
    const response = await app.request(searching());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ anything: [1, 'two'] });
  });

  it('answers with the status and headers given', async () => {
    const body = { code: 503, message: 'Down for maintenance.' };
    await addScenario({
      path: '/profiles/searching',
      respond: { body, status: 503, headers: { 'Retry-After': '7' } },
    });
    const response = await app.request(searching());
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual(body);
  });

  it('warns with the first error, pointer and message, when the body breaks the contract', async () => {
    const normal = await normalAnswer();
    const broken = { ...normal, data: { profiles: 'none' } };
    await addScenario({ path: '/profiles/searching', respond: { body: broken } });
    const response = await app.request(searching());
    expect(response.status).toBe(200);
    expect(response.headers.get(WARNING)).toBe(
      "the scenario's body does not fit the contract (GET /profiles/searching 200): /data/profiles must be array",
    );
    expect(await response.json()).toEqual(broken);
  });

  it('gives no warning for a body that fits the contract', async () => {
    const normal = await normalAnswer();
    await addScenario({ path: '/profiles/searching', respond: { body: normal } });
    const response = await app.request(searching());
    expect(response.headers.get(WARNING)).toBeNull();
    expect(await response.json()).toEqual(normal);
  });

  it('answers the body unchecked, with no warning, in an app given no judge (as in a page)', async () => {
    await addScenario({ path: '/profiles/searching', respond: { body: { data: 5 } } }, unchecked);
    const response = await unchecked.request(searching());
    expect(response.headers.get(WARNING)).toBeNull();
    expect(await response.json()).toEqual({ data: 5 });
  });
});

describe('respond: {patch}', () => {
  it("makes one profile's name 200 characters long, the whole item sent (arrays are replaced)", async () => {
    const normal = await normalAnswer(1);
    const profile = normal.data.profiles[0] as NonNullable<(typeof normal.data.profiles)[0]>;
    const long = 'N'.repeat(200);
    await addScenario({
      path: '/profiles/searching',
      params: { limit: 1 },
      respond: {
        patch: { data: { profiles: [{ ...profile, info: { ...profile.info, full_name: long } }] } },
      },
    });
    const response = await app.request(searching(1));
    const patched = (await response.json()) as ProfilesSearching;
    expect(patched.data.profiles[0]?.info?.full_name).toBe(long);
    expect(patched.meta).toEqual(normal.meta);
    expect(response.headers.get(WARNING)).toBeNull();
  });

  it('merges nested objects, keeping what the patch does not name', async () => {
    const normal = await normalAnswer();
    await addScenario({ path: '/profiles/searching', respond: { patch: { meta: { page: 9 } } } });
    const patched = (await (await app.request(searching(1))).json()) as ProfilesSearching;
    expect(patched).toEqual({ ...normal, meta: { ...normal.meta, page: 9 } });
  });

  it('removes a member patched with null, and warns when that breaks the contract', async () => {
    await addScenario({ path: '/profiles/searching', respond: { patch: { meta: null } } });
    const response = await app.request(searching());
    expect(await response.json()).not.toHaveProperty('meta');
    expect(response.headers.get(WARNING)).toMatch(/\(root\) must have required property 'meta'$/);
  });

  it('answers with the status given, checked against that status', async () => {
    await addScenario({ path: '/profiles/searching', respond: { patch: {}, status: 203 } });
    const response = await app.request(searching());
    expect(response.status).toBe(203);
    expect(response.headers.get(WARNING)).toBe(
      'the contract documents no 203 answer for GET /profiles/searching',
    );
  });

  it('leaves an error answer as it was, saying the patch was not applied', async () => {
    await addScenario({ path: '/profiles/searching', respond: { patch: { code: 1 } } });
    const response = await app.request('/profiles/searching');
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorAnswer).code).toBe(400);
    expect(response.headers.get(WARNING)).toBe(
      "the scenario's patch was not applied: the normal answer was a 400",
    );
  });
});

describe('scenario headers: what a request must carry', () => {
  const tenant = { path: '/profiles/searching', headers: { 'X-Tenant': 'acme' } };

  it('matches a request carrying the header with that value', async () => {
    await addScenario({ ...tenant, respond: { status: 500 } });
    const response = await app.request(searching(), { headers: { 'X-Tenant': 'acme' } });
    expect(response.status).toBe(500);
  });

  it('matches the header name in any case', async () => {
    await addScenario({
      path: '/profiles/searching',
      headers: { 'x-TENANT': 'acme' },
      respond: { status: 500 },
    });
    const response = await app.request(searching(), { headers: { 'X-Tenant': 'acme' } });
    expect(response.status).toBe(500);
  });

  it('lets by a request without the header, or with another value (values are exact)', async () => {
    await addScenario({ ...tenant, respond: { status: 500 } });
    expect((await app.request(searching())).status).toBe(200);
    const other = await app.request(searching(), { headers: { 'X-Tenant': 'ACME' } });
    expect(other.status).toBe(200);
    expect(app.state.steering.scenarios.list()[0]?.matched).toBe(0);
  });

  it('shows a secret header value as [redacted], and still matches on it', async () => {
    const added = await addScenario({
      path: '/profiles/searching',
      headers: { 'X-API-KEY': 'key-of-tenant-a', 'X-Tenant': 'acme' },
      respond: { status: 500 },
    });
    expect(added.body.data.headers).toEqual({ 'X-API-KEY': '[redacted]', 'X-Tenant': 'acme' });
    const listed = (await (await app.request('/_mock/scenarios')).json()) as ScenarioList;
    expect(JSON.stringify(listed)).not.toContain('key-of-tenant-a');
    const response = await app.request(searching(), {
      headers: { 'X-API-KEY': 'key-of-tenant-a', 'X-Tenant': 'acme' },
    });
    expect(response.status).toBe(500);
  });
});

describe('a bad body, patch or headers', () => {
  const path = '/profiles/searching';

  it.each([
    [
      { body: 1, patch: {} },
      'respond',
      /respond takes exactly one of .*\{"body": \{…\}\}, \{"patch": \{…\}\}/,
    ],
    [{ body: 1, example: 'empty' }, 'respond', /exactly one of/],
    [
      { patch: [1] },
      'respond.patch',
      /respond.patch must be a JSON object .*got an array.*\{"body": …\}/,
    ],
    [{ patch: 'x' }, 'respond.patch', /respond.patch must be a JSON object/],
    [{ body: {}, status: 99 }, 'respond.status', /from 200 to 599/],
    [
      { body: {}, headers: { Connection: 'close' } },
      'respond.headers.Connection',
      /frames the answer/,
    ],
  ])('refuses respond %j with a 400 naming %s', async (respond, param, message) => {
    const reply = await addScenario<ErrorAnswer>({ path, respond });
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual([param]);
    expect(reply.body.message).toMatch(message);
  });

  it('names the index of a bad patch in a list', async () => {
    const reply = await addScenario<ErrorAnswer>({
      path,
      respond: [{ status: 500 }, { patch: null }],
    });
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual(['respond[1].patch']);
  });

  it('refuses a body deeper than the JSON depth limit, saying so', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const reply = await addScenario<ErrorAnswer>({ path, respond: { body: deep } });
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual(['respond.body']);
    expect(reply.body.message).toMatch(/respond.body nests deeper than 64 levels/);
  });

  it('refuses a body over the admin body limit given to use(), saying so', () => {
    const { use } = steeringControls(app.state.steering);
    expect(() => use({ path, respond: { body: 'x'.repeat(1024 * 1024) } })).toThrow(
      /respond.body is 1048578 bytes as JSON, over the admin API's body limit of 1048576 bytes/,
    );
  });

  it.each([
    [['X-Tenant'], 'headers', /headers must be an object of header names/],
    [{ 'X-Tenant': 5 }, 'headers.X-Tenant', /headers.X-Tenant must be a string, got number/],
    [{ 'bad name': 'x' }, 'headers.bad name', /is not a header name/],
    [{ 'X-Tenant': 'a\r\nb' }, 'headers.X-Tenant', /is not a header value/],
  ])('refuses headers %j with a 400 naming %s', async (headers, param, message) => {
    const reply = await addScenario<ErrorAnswer>({ path, headers, respond: { status: 500 } });
    expect(reply.status).toBe(400);
    expect(errorParams(reply.body)).toEqual([param]);
    expect(reply.body.message).toMatch(message);
  });
});
