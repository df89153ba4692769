import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../../contract/suite/breaking-changes.ts';
import { listAt, objAt } from '../support/json-reads.ts';
import { changed, current, type Doc, shown } from './contract-changes.ts';

/** The searching path of the document, or an object down a path inside it. */
const search = (d: Doc, ...path: string[]) => objAt(d, 'paths', '/profiles/searching', ...path);
/** The 429 response component, or an object down a path inside it. */
const tooMany = (d: Doc, ...path: string[]) =>
  objAt(d, 'components', 'responses', 'TooManyRequests', ...path);

describe('ADDITIVE: request bodies', () => {
  it('reports a new required body, and takes a new optional one', () => {
    const without = changed((d) => delete search(d, 'post').requestBody);
    expect(shown(breakingChanges(without, current))).toEqual([
      'POST /profiles/searching request body: new request body is required',
    ]);
    const optional = changed((d) => (search(d, 'post', 'requestBody').required = false));
    expect(breakingChanges(without, optional)).toEqual([]);
  });

  it('takes bodies required or optional on both sides', () => {
    const optional = changed((d) => (search(d, 'post', 'requestBody').required = false));
    expect(breakingChanges(optional, optional)).toEqual([]);
    expect(breakingChanges(current, current)).toEqual([]);
  });

  it('judges a body schema as a request, and a body without content as taking anything', () => {
    const tighter = changed((d) => (objAt(d, 'components', 'schemas', 'Limit').maximum = 50));
    expect(shown(breakingChanges(current, tighter))).toContain(
      'POST /profiles/searching request body application/json.limit (alternative 1): maximum tightened from 100 to 50',
    );
    const bare = changed((d) => delete search(d, 'post', 'requestBody').content);
    expect(breakingChanges(bare, current)).toEqual([]);
  });

  it('reports a body removed', () => {
    const without = changed((d) => delete search(d, 'post').requestBody);
    expect(shown(breakingChanges(current, without))).toEqual([
      'POST /profiles/searching request body: request body removed',
    ]);
  });

  it('reports a media type the body no longer takes', () => {
    const content = (d: Doc) => search(d, 'post', 'requestBody', 'content');
    const form = { schema: { type: 'object' } };
    const both = changed((d) => (content(d)['application/x-www-form-urlencoded'] = form));
    expect(shown(breakingChanges(both, current))).toEqual([
      'POST /profiles/searching request body application/x-www-form-urlencoded: media type removed',
    ]);
    const none = changed((d) => delete search(d, 'post', 'requestBody').content);
    expect(shown(breakingChanges(current, none))).toEqual([
      'POST /profiles/searching request body application/json: media type removed',
    ]);
  });
});

describe('ADDITIVE: response headers', () => {
  it('reports a required header removed, on each operation', () => {
    const breaks = breakingChanges(
      current,
      changed((d) => delete tooMany(d).headers),
    );
    expect(breaks).toHaveLength(12);
    expect(shown(breaks)).toContain(
      'GET /jobs/grading response 429 header Retry-After: required header removed',
    );
  });

  it('takes an optional header removed', () => {
    const optional = changed((d) => (tooMany(d, 'headers', 'Retry-After').required = false));
    const without = changed((d) => delete tooMany(d, 'headers')['Retry-After']);
    expect(breakingChanges(optional, without)).toEqual([]);
  });

  it('reports a header whose value widens', () => {
    const widened = changed((d) => (tooMany(d, 'headers', 'Retry-After', 'schema').minimum = 0));
    const breaks = shown(breakingChanges(current, widened));
    expect(breaks).toHaveLength(12);
    expect(breaks[0]).toMatch(/ response 429 header Retry-After: minimum loosened from 1 to 0$/);
  });

  it('reads headers through a $ref', () => {
    const referenced = changed((d) => {
      objAt(d, 'components').headers = { RetryAfter: tooMany(d, 'headers', 'Retry-After') };
      tooMany(d, 'headers')['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    });
    expect(breakingChanges(referenced, current)).toEqual([]);
    const optional = changed((d) => (tooMany(d, 'headers', 'Retry-After').required = false));
    expect(breakingChanges(referenced, optional)).toHaveLength(12);
  });
});

describe('ADDITIVE: how a parameter is written', () => {
  const page = (d: Doc) => objAt(d, 'components', 'parameters', 'Page');
  const withHeader = (extra: Doc) =>
    changed((d) =>
      listAt(search(d, 'get'), 'parameters').push({
        name: 'X-Trace',
        in: 'header',
        schema: { type: 'string' },
        ...extra,
      }),
    );

  it('spells out the defaults: a query parameter is form, exploded', () => {
    const spelled = changed((d) => Object.assign(page(d), { style: 'form', explode: true }));
    expect(breakingChanges(current, spelled)).toEqual([]);
    const packed = changed((d) => (page(d).explode = false));
    expect(shown(breakingChanges(current, packed))[0]).toMatch(
      /query:page: serialization changed from style form, exploded to style form$/,
    );
  });

  it('reports a style changed', () => {
    const spaced = changed((d) => (page(d).style = 'spaceDelimited'));
    expect(shown(breakingChanges(current, spaced))[0]).toMatch(
      /query:page: serialization changed from style form, exploded to style spaceDelimited$/,
    );
  });

  it('spells out the defaults: a header parameter is simple, not exploded', () => {
    const plain = withHeader({});
    expect(breakingChanges(plain, withHeader({ style: 'simple', explode: false }))).toEqual([]);
    expect(shown(breakingChanges(plain, withHeader({ explode: true })))).toEqual([
      'GET /profiles/searching parameter header:X-Trace: serialization changed from style simple to style simple, exploded',
    ]);
  });

  it('tells a cookie parameter from a header of the same name', () => {
    const cookie = changed((d) =>
      listAt(search(d, 'get'), 'parameters').push({
        name: 'X-Trace',
        in: 'cookie',
        schema: { type: 'string' },
      }),
    );
    const spelled = changed((d) =>
      listAt(search(d, 'get'), 'parameters').push({
        name: 'X-Trace',
        in: 'cookie',
        style: 'form',
        explode: true,
        schema: { type: 'string' },
      }),
    );
    expect(breakingChanges(cookie, spelled)).toEqual([]);
    expect(shown(breakingChanges(cookie, withHeader({})))).toEqual([
      'GET /profiles/searching parameter cookie:X-Trace: parameter removed',
    ]);
  });

  it('reports a new required parameter, and takes a new optional one', () => {
    expect(breakingChanges(current, withHeader({}))).toEqual([]);
    expect(shown(breakingChanges(current, withHeader({ required: true })))).toEqual([
      'GET /profiles/searching parameter header:X-Trace: new parameter is required',
    ]);
  });
});

describe('ADDITIVE: responses', () => {
  it('reads a response that is no object as nothing to compare', () => {
    const odd = changed((d) => (search(d, 'get', 'responses')['200'] = 'see elsewhere'));
    expect(breakingChanges(odd, current)).toEqual([]);
    expect(breakingChanges(current, odd)).toEqual([]);
  });

  it('reports an operation whose responses are gone', () => {
    const none = changed((d) => delete search(d, 'get').responses);
    const breaks = breakingChanges(current, none);
    expect(breaks.length).toBeGreaterThan(2);
    expect(new Set(breaks.map((b) => b.what))).toEqual(new Set(['response removed']));
    expect(breakingChanges(none, current)).toEqual([]);
  });
});
