import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../../contract/suite/breaking-changes.ts';
import { objAt } from '../support/json-reads.ts';
import { changed, current, type Doc, shown } from './contract-changes.ts';

/** The POST bodies (searching, scoring) and the one required response header (429's Retry-After). */
const searchBody = (d: Doc) => objAt(d, 'paths', '/profiles/searching', 'post', 'requestBody');
const retryAfter = (d: Doc) =>
  objAt(d, 'components', 'responses', 'TooManyRequests', 'headers', 'Retry-After');

// The first published contract has neither, so these compare the current one with itself changed.
describe('ADDITIVE: a request body newly required', () => {
  it('reports a body the published contract made optional and the current one requires', () => {
    const published = changed((d) => (searchBody(d).required = false));
    expect(shown(breakingChanges(published, current))).toEqual([
      'POST /profiles/searching request body: request body newly required',
    ]);
  });

  it('reports it when the published contract left required out', () => {
    const published = changed((d) => delete searchBody(d).required);
    expect(shown(breakingChanges(published, current))).toEqual([
      'POST /profiles/searching request body: request body newly required',
    ]);
  });

  it('accepts a required body made optional', () => {
    expect(
      breakingChanges(
        current,
        changed((d) => (searchBody(d).required = false)),
      ),
    ).toEqual([]);
  });
});

describe('ADDITIVE: a response header no longer always returned', () => {
  it('reports a required header made optional, on every operation that answers it', () => {
    const breaks = breakingChanges(
      current,
      changed((d) => (retryAfter(d).required = false)),
    );
    expect(breaks).toHaveLength(12);
    expect(new Set(breaks.map((b) => b.what))).toEqual(
      new Set(['header no longer always returned']),
    );
    expect(shown(breaks)).toContain(
      'GET /profiles/searching response 429 header Retry-After: header no longer always returned',
    );
  });

  it('reports it when required is left out', () => {
    const breaks = breakingChanges(
      current,
      changed((d) => delete retryAfter(d).required),
    );
    expect(new Set(breaks.map((b) => b.what))).toEqual(
      new Set(['header no longer always returned']),
    );
  });

  it('accepts an optional header made required', () => {
    const published = changed((d) => (retryAfter(d).required = false));
    expect(breakingChanges(published, current)).toEqual([]);
  });
});
