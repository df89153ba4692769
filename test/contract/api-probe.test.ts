import { describe, expect, it } from 'vitest';
import { type ProbeAnswer, probeApi } from '../../contract/suite/api-probe.ts';

const answer = (status: number, contentType: string | null, text: string): ProbeAnswer => ({
  method: 'GET',
  url: 'http://h/v1/profiles/searching',
  status,
  contentType,
  text,
});

/** The probe over fixed answers, and the paths it asked. */
async function probe(...answers: (ProbeAnswer | undefined)[]) {
  const asked: string[] = [];
  const verdict = await probeApi(async (path) => {
    asked.push(path);
    return answers[asked.length - 1];
  });
  return { verdict, asked };
}

describe('the probe before the rules', () => {
  it('takes a JSON answer for the API and asks nothing more', async () => {
    const { verdict, asked } = await probe(answer(400, 'application/json', '{"code":400}'));
    expect(verdict).toBeUndefined();
    expect(asked).toEqual(['/profiles/searching']);
  });

  it('takes a JSON content type for the API whatever the body, an empty one included', async () => {
    expect((await probe(answer(200, 'application/problem+json', ''))).verdict).toBeUndefined();
  });

  it('takes a body that parses as JSON for the API whatever its content type', async () => {
    expect((await probe(answer(400, 'text/plain', '{"code":400}'))).verdict).toBeUndefined();
  });

  it('asks a grading path when the first answer is no JSON, and judges the API by it', async () => {
    const { verdict, asked } = await probe(
      answer(404, 'text/html', '<h1>no</h1>'),
      answer(400, 'application/json', '{}'),
    );
    expect(verdict).toBeUndefined();
    expect(asked).toEqual(['/profiles/searching', '/profiles/grading']);
  });

  it('says not the API when no answer is JSON, showing the first', async () => {
    const page = `<!doctype html>\n<html>\t<body>${'x'.repeat(100)}</body></html>`;
    const { verdict } = await probe(
      answer(200, 'text/html; charset=utf-8', page),
      answer(200, null, ''),
    );
    expect(verdict).toBe(
      `not the API: GET http://h/v1/profiles/searching answered 200 text/html ("<!doctype html> <html> <body>xxxxxxxxxxx…"); is --base-url the API's base (with its /v1)?`,
    );
  });

  it('gives no verdict when a probe gets no answer: the rules say what happens', async () => {
    expect((await probe(undefined)).verdict).toBeUndefined();
  });
});
