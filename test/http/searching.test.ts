import { describe, expect, it } from 'vitest';
import type { Job, Profile } from '../../src/store/types.ts';
import { pythonSdkPaginationHolds } from '../clients/support/python-sdk.ts';
import type { Searching } from '../support/answers.ts';
import { get, mockApp, post } from '../support/mock-app.ts';
import { containerOf, distanceKm, SIDES, type Side } from '../support/sides.ts';

const { app, fixtures } = mockApp();

type Item = Profile | Job;

describe.each(SIDES)('$plural/searching', (side: Side) => {
  const path = `/${side.plural}/searching`;
  const containers = side.containers(fixtures);
  const everything = side.items(fixtures);
  const base = { [side.containerKeys]: containers };

  /** Every item a search finds, page after page. */
  async function all(params: Record<string, unknown>): Promise<Item[]> {
    const items: Item[] = [];
    for (let page = 1; ; page++) {
      const { status, body } = await get<Searching>(app, path, {
        ...base,
        ...params,
        limit: 100,
        page,
      });
      expect(status).toBe(200);
      items.push(...body.data[side.plural]);
      if (page >= body.meta.maxPage) return items;
    }
  }

  /** The filter keeps exactly the items the predicate accepts, and that is some but not all. */
  async function expectExactFilter(
    params: Record<string, unknown>,
    accepts: (item: Item) => boolean,
  ) {
    const found = await all(params);
    const expected = everything
      .filter(accepts)
      .map((i) => i.key)
      .sort();
    expect(found.map((i) => i.key).sort()).toEqual(expected);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(everything.length);
  }

  const sample = everything[3] as Item;
  const names = (list: { name: string }[]) => list.map((x) => x.name.toLowerCase());

  it('finds every item of the requested containers when no filter is given', async () => {
    expect((await all({})).length).toBe(everything.length);
  });

  it(`finds only the items of the ${side.containerKeys} asked for`, async () => {
    const first = containers[0] as string;
    await expectExactFilter(
      { [side.containerKeys]: [first] },
      (item) => containerOf(side, item as never) === first,
    );
  });

  it('keeps the items whose text holds every keyword, ignoring case', async () => {
    const word = side
      .text(sample as never)
      .split(/\s+/)
      .find((w) => /^[A-Za-z]{5,}$/.test(w)) as string;
    const found = await all({ text_keywords: [word.toUpperCase()] });
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(everything.length);
    for (const item of found)
      expect(JSON.stringify(item).toLowerCase()).toContain(word.toLowerCase());
    const sure = everything.filter((i) => side.text(i).toLowerCase().includes(word.toLowerCase()));
    expect(found.map((i) => i.key)).toEqual(expect.arrayContaining(sure.map((i) => i.key)));
  });

  it('keeps the items that have every skill asked for', async () => {
    const wanted = names(sample.skills).slice(0, 2);
    await expectExactFilter({ skills: wanted.map((name) => ({ name, value: null })) }, (item) =>
      wanted.every((w) => names((item as Item).skills).includes(w)),
    );
  });

  it('keeps the items that list every language asked for', async () => {
    const wanted = names(sample.languages).slice(0, 2);
    await expectExactFilter({ languages: wanted.map((name) => ({ name, value: null })) }, (item) =>
      wanted.every((w) => names((item as Item).languages).includes(w)),
    );
  });

  it('keeps the items carrying an included tag', async () => {
    const tag = (sample.tags as { name: string; value: string }[]).find(
      (t) => t.name === 'family',
    ) as { name: string; value: string };
    await expectExactFilter({ tags_included: [{ name: tag.name, value: tag.value }] }, (item) =>
      (item as Item).tags.some((t) => t.name === tag.name && t.value === tag.value),
    );
  });

  it('keeps the items carrying one tag of each group of a list of lists', async () => {
    const groups = [
      [
        { name: 'remote', value: 'yes' },
        { name: 'remote', value: 'hybrid' },
      ],
    ];
    await expectExactFilter({ tags_included: groups }, (item) =>
      (item as Item).tags.some(
        (t) => t.name === 'remote' && (t.value === 'yes' || t.value === 'hybrid'),
      ),
    );
  });

  it('drops the items carrying an excluded tag', async () => {
    await expectExactFilter(
      { tags_excluded: [{ name: 'remote', value: 'no' }] },
      (item) => !(item as Item).tags.some((t) => t.name === 'remote' && t.value === 'no'),
    );
  });

  it('keeps the items within location_distance km of location_geopoint', async () => {
    const point = side.location(sample as never) as { lat: number; lng: number };
    await expectExactFilter({ location_geopoint: point, location_distance: 300 }, (item) => {
      const at = side.location(item as never);
      return (
        at.lat !== null &&
        at.lng !== null &&
        distanceKm(point, at as { lat: number; lng: number }) <= 300
      );
    });
  });

  it('keeps the items created between created_at_min and created_at_max', async () => {
    const times = everything.map((i) => Date.parse(i.created_at)).sort((a, b) => a - b);
    const min = new Date(times[Math.floor(times.length / 4)] as number).toISOString();
    const max = new Date(times[Math.floor((times.length * 3) / 4)] as number).toISOString();
    await expectExactFilter({ created_at_min: min, created_at_max: max }, (item) => {
      const t = Date.parse((item as Item).created_at);
      return t >= Date.parse(min) && t <= Date.parse(max);
    });
  });

  it('keeps the items whose years of experience lie within experiences_duration_min and _max', async () => {
    await expectExactFilter(
      { experiences_duration_min: 2, experiences_duration_max: 6 },
      (item) => {
        const years = side.years(item as never);
        return years !== null && years >= 2 && years <= 6;
      },
    );
  });

  it('sorts by created_at, newest first, by default', async () => {
    const found = await all({});
    const times = found.map((i) => Date.parse(i.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('sorts by created_at oldest first with order_by=asc', async () => {
    const found = await all({ order_by: 'asc' });
    const times = found.map((i) => Date.parse(i.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('sorts by updated_at', async () => {
    const found = await all({ sort_by: 'updated_at' });
    const times = found.map((i) => Date.parse(i.updated_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('sorts nearest first with sort_by=location', async () => {
    const point = side.location(sample as never) as { lat: number; lng: number };
    const found = await all({
      sort_by: 'location',
      location_geopoint: point,
      location_distance: 2000,
    });
    const distances = found.map((i) =>
      distanceKm(point, side.location(i as never) as { lat: number; lng: number }),
    );
    expect(distances.length).toBeGreaterThan(1);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it('sorts by keyword occurrences with sort_by=searching', async () => {
    const word = names(sample.skills)[0] as string;
    const found = await all({ sort_by: 'searching', text_keywords: [word] });
    const count = (item: Item) => JSON.stringify(item).toLowerCase().split(word).length;
    expect(found.length).toBeGreaterThan(1);
    expect(count(found[0] as Item)).toBeGreaterThanOrEqual(count(found.at(-1) as Item));
  });

  it('pages are disjoint, hold limit items at most, and together hold total', async () => {
    const limit = 7;
    const first = await get<Searching>(app, path, { ...base, limit, page: 1 });
    const { total, maxPage } = first.body.meta;
    expect(maxPage).toBe(Math.max(1, Math.ceil(total / limit)));
    const keys: string[] = [];
    for (let page = 1; page <= maxPage; page++) {
      const { body } = await get<Searching>(app, path, {
        ...base,
        limit,
        page,
        sort_by: 'updated_at',
        order_by: 'asc',
      });
      expect(body.meta.count).toBe(body.data[side.plural].length);
      expect(body.meta.count).toBeLessThanOrEqual(limit);
      keys.push(...body.data[side.plural].map((i) => i.key));
    }
    expect(keys.length).toBe(total);
    expect(new Set(keys).size).toBe(total);
  });

  it('answers a page past the last with no items, as the last page number', async () => {
    const { body } = await get<Searching>(app, path, { ...base, limit: 100, page: 999 });
    const maxPage = Math.ceil(everything.length / 100);
    expect(body.data[side.plural]).toEqual([]);
    expect(body.meta).toEqual({ page: maxPage, maxPage, count: 0, total: everything.length });
    expect(pythonSdkPaginationHolds(body.meta)).toBe(true);
  });

  it('answers POST with a JSON body exactly as GET with the same parameters', async () => {
    const params = {
      ...base,
      skills: [{ name: names(sample.skills)[0], value: null }],
      sort_by: 'updated_at',
      order_by: 'asc',
      limit: 5,
      page: 2,
    };
    const viaGet = await get(app, path, params);
    const viaPost = await post(app, path, params);
    expect(viaPost.status).toBe(viaGet.status);
    expect(viaPost.body).toEqual(viaGet.body);
  });

  it('takes lists in a POST body as JSON-encoded strings too', async () => {
    const asArrays = await post(app, path, { ...base, text_keywords: ['a'] });
    const asStrings = await post(app, path, {
      [side.containerKeys]: JSON.stringify(containers),
      text_keywords: '["a"]',
    });
    expect(asStrings.body).toEqual(asArrays.body);
  });

  it('takes repeated query keys as a list', async () => {
    const repeated = new URLSearchParams(containers.map((k) => [side.containerKeys, k]));
    const { app: same } = mockApp();
    const viaRepeat = await same.request(`${path}?${repeated}`);
    const viaJson = await get(app, path, base);
    expect(await viaRepeat.json()).toEqual(viaJson.body);
  });

  it('ignores parameters it does not know', async () => {
    const plain = await get(app, path, base);
    const extra = await get(app, path, { ...base, raw_filter: { query: {} }, future_option: 'x' });
    expect(extra.body).toEqual(plain.body);
  });
});

describe('null in a POST body', () => {
  it('answers every optional field sent as null exactly as leaving it out', async () => {
    const base = { source_keys: fixtures.sources.map((s) => s.key), text_keywords: ['python'] };
    const nulls = Object.fromEntries(
      ['order_by', 'sort_by', 'page', 'limit', 'skills', 'location_geopoint', 'created_at_min'].map(
        (name) => [name, null],
      ),
    );
    const plain = await post(app, '/profiles/searching', base);
    const withNulls = await post(app, '/profiles/searching', { ...base, ...nulls });
    expect(plain.status).toBe(200);
    expect(withNulls.body).toEqual(plain.body);
  });
});
