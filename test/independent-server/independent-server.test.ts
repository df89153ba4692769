import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ErrorAnswer,
  firstError,
  type ProfilesGrading,
  type ProfilesSearching,
} from '../support/answers.ts';
import { checkIndependent } from './check-it.ts';
import { DEFECT_PROBES } from './defect-probes.ts';
import { call, get, post } from './http-probe.ts';
import {
  DEFECTS,
  type DefectName,
  type IndependentServer,
  startIndependentServer,
} from './index.ts';

let clean: IndependentServer;

beforeAll(async () => {
  clean = await startIndependentServer();
});

afterAll(() => clean.close());

describe('hrmock check against the independent server', () => {
  it('passes every rule on the clean server', async () => {
    const { code, report, failed } = await checkIndependent(clean);
    expect(failed, JSON.stringify(failed, null, 2).slice(0, 6000)).toEqual([]);
    expect(report.passed).toBeGreaterThan(0);
    expect(code).toBe(0);
    // Every operation exercised, and at least 80% of each one's documented parameters sent.
    for (const op of report.coverage.operations) {
      const total = op.parameters.length + op.unsentParameters.length;
      expect(op.statuses['200'], op.operationId).toBeGreaterThan(0);
      expect(op.parameters.length / total, op.operationId).toBeGreaterThanOrEqual(0.8);
    }
  }, 60_000);
});

describe('the independent server', () => {
  it('answers a method a path does not take with a JSON 405 and its Allow header', async () => {
    const reply = await call<ErrorAnswer>(clean.url, '/profiles/searching', { method: 'DELETE' });
    expect([reply.status, reply.allow, reply.body.code]).toEqual([405, 'GET, POST', 405]);
    expect(reply.type).toMatch(/^application\/json/);
  });

  it('answers an unknown path with a JSON 404', async () => {
    const reply = await call<ErrorAnswer>(clean.url, '/profiles/grade');
    expect([reply.status, reply.body.code]).toEqual([404, 404]);
    expect(reply.type).toMatch(/^application\/json/);
  });

  it('refuses a POST body that is not JSON with a 415', async () => {
    const reply = await post<ErrorAnswer>(
      clean.url,
      '/jobs/searching',
      'board_keys=x',
      'text/plain',
    );
    expect([reply.status, reply.body.code]).toEqual([415, 415]);
  });

  it('names the body when it is malformed JSON', async () => {
    const reply = await post<ErrorAnswer>(clean.url, '/jobs/searching', '{"board_keys": [');
    expect([reply.status, firstError(reply.body).param]).toEqual([400, 'body']);
  });

  it('refuses a body over 1 MiB with a 413 and a URL over 16 KB with a 414', async () => {
    const big = await post(clean.url, '/jobs/searching', { pad: 'x'.repeat(1_100_000) });
    const long = await get<ErrorAnswer>(clean.url, '/jobs/searching', { pad: 'x'.repeat(17_000) });
    expect([big.status, long.status]).toEqual([413, 414]);
    expect(long.body.message).toContain('POST');
  });

  it('says which object a key names nothing of', async () => {
    const reply = await get<ErrorAnswer>(clean.url, '/profiles/searching', {
      source_keys: ['0'.repeat(40)],
    });
    expect([reply.status, reply.body.message]).toEqual([400, 'Unable to find object: source']);
  });

  it('matches text ignoring case, accents included', async () => {
    const keys = clean.target.profiles.source_keys;
    const lower = await get<ProfilesSearching>(clean.url, '/profiles/searching', {
      source_keys: keys,
      text_keywords: ['zürich'],
    });
    const upper = await get<ProfilesSearching>(clean.url, '/profiles/searching', {
      source_keys: keys,
      text_keywords: ['ZÜRICH'],
    });
    expect(lower.body.meta.total).toBeGreaterThan(0);
    expect(upper.body.meta).toEqual(lower.body.meta);
  });

  it('grades the one profile with nothing to grade as an error, not a score', async () => {
    const t = clean.target.profiles;
    const reply = await get<ProfilesGrading>(clean.url, '/profiles/grading', {
      algorithm_key: t.algorithm_key,
      board_key: t.board_key,
      job_key: t.job_key,
      profile_ids: t.profile_ids,
    });
    const errors = reply.body.data.errors.filter((error) => error !== null);
    expect(errors).toHaveLength(1);
    expect(reply.body.data.scores.filter((score) => score === null)).toHaveLength(1);
  });

  it('leaves nothing listening once closed', async () => {
    const server = await startIndependentServer();
    await get(server.url, '/jobs/searching', { board_keys: server.target.jobs.board_keys });
    await server.close();
    const { port } = new URL(server.url);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});

describe('each defect changes what the server says', () => {
  it('describes every defect by kind and in a sentence', () => {
    for (const defect of Object.values(DEFECTS)) expect(defect.what).toMatch(/^\S.* .*\.$/);
  });

  for (const name of Object.keys(DEFECTS) as DefectName[]) {
    it(`${name}: ${DEFECTS[name].what}`, async () => {
      const broken = await startIndependentServer({ defects: [name], slowMs: 300 });
      try {
        await DEFECT_PROBES[name](clean.url, broken.url, clean.target);
      } finally {
        await broken.close();
      }
    });
  }
});
