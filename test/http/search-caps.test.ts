import { describe, expect, it } from 'vitest';
import { LIST_CAPS } from '../../src/hr/list-caps.ts';
import { targetOf } from '../../src/hr/target.ts';
import { type ErrorAnswer, firstError, type ProfilesSearching } from '../support/answers.ts';
import { get, mockApp, post } from '../support/mock-app.ts';

const { app } = mockApp();
const target = targetOf(app.state.store);
const sources = { source_keys: target.profiles.source_keys };
const byRelevance = { ...sources, sort_by: 'searching', limit: 100 };

/** `count` distinct keywords, none a word of the fixtures. */
function keywords(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `kw${i}`);
}

function items(count: number): { name: string; value: null }[] {
  return Array.from({ length: count }, (_, i) => ({ name: `item ${i}`, value: null }));
}

describe('repeated keywords', () => {
  it('ranks a keyword repeated in any case as the keyword once', async () => {
    const once = await post<ProfilesSearching>(app, '/profiles/searching', {
      ...byRelevance,
      text_keywords: ['python', 'sql'],
    });
    const repeated = await post(app, '/profiles/searching', {
      ...byRelevance,
      text_keywords: ['python', 'Python', 'PYTHON', 'python', 'sql'],
    });
    expect(once.body.meta.total).toBeGreaterThan(1);
    expect(repeated.body).toEqual(once.body);
  });

  it('takes a thousand copies of one keyword as that keyword alone', async () => {
    const once = await post(app, '/profiles/searching', { ...byRelevance, text_keywords: ['e'] });
    const copies = await post(app, '/profiles/searching', {
      ...byRelevance,
      text_keywords: Array(1000).fill('e'),
    });
    expect(copies.status).toBe(200);
    expect(copies.body).toEqual(once.body);
  });

  it('counts distinct keywords, not copies, against the cap', async () => {
    const { status } = await post(app, '/profiles/searching', {
      ...sources,
      text_keywords: [...keywords(LIST_CAPS.keywords), ...keywords(LIST_CAPS.keywords)],
    });
    expect(status).toBe(200);
  });
});

describe('caps on lists that multiply the work of a search', () => {
  const over = LIST_CAPS.keywords + 1;
  const cases: [string, Record<string, unknown>][] = [
    ['text_keywords', { text_keywords: keywords(over) }],
    ['summary_keywords', { summary_keywords: keywords(over) }],
    ['experience_keywords', { experience_keywords: keywords(over) }],
    ['education_keywords', { education_keywords: keywords(over) }],
    ['skills', { skills: items(LIST_CAPS.items + 1) }],
    ['languages', { languages: items(LIST_CAPS.items + 1) }],
    ['interests', { interests: items(LIST_CAPS.items + 1) }],
    ['tags', { tags: items(LIST_CAPS.items + 1) }],
    ['tags_included', { tags_included: [items(30), items(LIST_CAPS.items - 29)] }],
    ['tags_excluded', { tags_excluded: items(LIST_CAPS.items + 1) }],
  ];

  it.each(cases)('answers 400 naming %s over its cap, on POST and GET', async (param, extra) => {
    for (const reply of [
      await post<ErrorAnswer>(app, '/profiles/searching', { ...sources, ...extra }),
      await get<ErrorAnswer>(app, '/profiles/searching', { ...sources, ...extra }),
    ]) {
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toHaveLength(1);
      expect(firstError(reply.body).param).toBe(param);
      expect(firstError(reply.body).message).toMatch(
        /at most 50 .*: send the ones that matter most/,
      );
    }
  });

  it('takes every list at its cap', async () => {
    const { status } = await post(app, '/profiles/scoring', {
      ...sources,
      algorithm_key: 'a',
      board_key: target.profiles.board_key,
      job_key: target.profiles.job_key,
      text_keywords: keywords(LIST_CAPS.keywords),
      skills: items(LIST_CAPS.items),
      tags_excluded: items(LIST_CAPS.items),
    });
    expect(status).toBe(200);
  });

  it('answers 400 naming text_keywords for a keyword over 100 characters', async () => {
    const { status, body } = await post<ErrorAnswer>(app, '/profiles/searching', {
      ...sources,
      text_keywords: ['python', 'x'.repeat(LIST_CAPS.keywordLength + 1)],
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      {
        param: 'text_keywords',
        message: expect.stringMatching(/101 characters; a keyword may have at most 100/),
      },
    ]);
  });

  it('names the cap on jobs too', async () => {
    const { status, body } = await post<ErrorAnswer>(app, '/jobs/searching', {
      board_keys: target.jobs.board_keys,
      text_keywords: keywords(over),
    });
    expect(status).toBe(400);
    expect(firstError(body).param).toBe('text_keywords');
  });
});
