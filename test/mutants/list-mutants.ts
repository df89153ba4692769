import { nth, objAt } from '../support/json-reads.ts';
import {
  answer,
  editAnswer,
  editQuery,
  type Fetch,
  isGrading,
  isList,
  isScoring,
  listOf,
  type Mutant,
  metaOf,
  predictionsOf,
  scoresOf,
} from './rewrite.ts';

/** Each page after the first starts one item early, repeating the previous page's last item. */
function overlapByOne(fetch: Fetch): Fetch {
  return async (request) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const response = await fetch(request);
    if (request.method !== 'GET' || !isList(url) || !(page > 1)) return response;
    const previousUrl = new URL(url);
    previousUrl.searchParams.set('page', String(page - 1));
    const previous: unknown = await (await fetch(new Request(previousUrl, request))).json();
    return answer(await response.json(), response, (body) => {
      const list = listOf(body);
      const carried = listOf(previous).at(-1);
      if (list.length === 0 || carried === undefined) return;
      list.unshift(carried);
      list.pop();
      const predictions = predictionsOf(body);
      const carriedPair = predictionsOf(previous)?.at(-1);
      if (predictions && carriedPair) {
        predictions.unshift(carriedPair);
        predictions.pop();
      }
    });
  };
}

/** With score_threshold, the total counts every item and the kept ones again. */
function thresholdAddsToTotal(fetch: Fetch): Fetch {
  return async (request) => {
    const url = new URL(request.url);
    const response = await fetch(request);
    if (request.method !== 'GET' || !url.searchParams.has('score_threshold')) return response;
    const unfiltered = new URL(url);
    unfiltered.searchParams.delete('score_threshold');
    const all: unknown = await (await fetch(new Request(unfiltered, request))).json();
    return answer(await response.json(), response, (body) => {
      const [meta, allMeta] = [metaOf(body), metaOf(all)];
      if (meta && allMeta) meta.total += allMeta.total;
    });
  };
}

/** Mutants of the lists: what PAGE, ORDER, PRED and STABLE must catch. */
export const LIST_MUTANTS: Mutant[] = [
  {
    name: 'pages overlap by one item',
    rule: 'PAGE',
    evidence:
      /^expected page 2 to share no item with earlier pages, got [0-9a-f]{40} already on page 1$/,
    wrap: overlapByOne,
  },
  {
    name: 'the last page leaves out its last item',
    rule: 'PAGE',
    evidence: /^expected the \d+ pages to hold total=(\d+) items, got (?!\1$)\d+$/,
    wrap: editAnswer(isList, (body) => {
      const list = listOf(body);
      const meta = metaOf(body);
      if (!meta || meta.page !== meta.maxPage || list.length < 2) return;
      list.pop();
      predictionsOf(body)?.pop();
      meta.count -= 1;
    }),
  },
  {
    name: 'a page past the last repeats the last page',
    rule: 'PAGE',
    evidence: /^expected no items past the last page, got [1-9]\d*$/,
    wrap: (fetch) => async (request) => {
      const url = new URL(request.url);
      const response = await fetch(request);
      if (request.method !== 'GET' || !isList(url)) return response;
      const body: unknown = await response.json();
      const asked = Number(url.searchParams.get('page') ?? 1);
      const meta = metaOf(body);
      if (!meta || asked <= meta.maxPage || meta.total === 0) return answer(body, response);
      const last = new URL(url);
      last.searchParams.set('page', String(meta.maxPage));
      return fetch(new Request(last, request));
    },
  },
  {
    name: 'a page holds one item more than limit',
    rule: 'PAGE',
    evidence: /^expected at most limit=1 items, got 2$/,
    wrap: editQuery((url) => {
      const limit = url.searchParams.get('limit');
      if (isList(url) && limit !== null)
        url.searchParams.set('limit', String(Math.min(100, Number(limit) + 1)));
    }),
  },
  {
    name: 'meta.count is one off',
    rule: 'PAGE',
    evidence: /^expected meta\.count = 1 \(the items on the page\), got 2$/,
    wrap: editAnswer(isList, (body) => {
      const meta = metaOf(body);
      if (meta) meta.count += 1;
    }),
  },
  {
    name: 'maxPage is rounded down',
    rule: 'PAGE',
    evidence: /^expected meta\.maxPage = max\(1, ceil\(\d+ \/ [37]\)\), got \d+$/,
    wrap: editAnswer(isList, (body, url) => {
      const limit = Number(url.searchParams.get('limit') ?? 30);
      const meta = metaOf(body);
      if (meta) meta.maxPage = Math.floor(meta.total / limit);
    }),
  },
  {
    name: 'an empty result has maxPage 0',
    rule: 'PAGE',
    evidence:
      /^expected an empty result as one empty page: page 1, maxPage 1, count 0, got \{"page":1,"maxPage":0,/,
    wrap: editAnswer(isList, (body) => {
      const meta = metaOf(body);
      if (meta?.total === 0) meta.maxPage = 0;
    }),
  },
  {
    name: 'a page past the last echoes the page asked for, above maxPage',
    rule: 'PAGE',
    evidence: /^expected meta\.page = min\((\d+), maxPage\) = \d+, got \1$/,
    wrap: editAnswer(isList, (body, url) => {
      const asked = Number(url.searchParams.get('page') ?? 1);
      const meta = metaOf(body);
      if (meta && asked > meta.maxPage) meta.page = asked;
    }),
  },
  {
    name: 'order_by is ignored',
    rule: 'ORDER',
    evidence: /^expected profiles by created_at asc, got item 1 \(\S+\) after \S+$/,
    wrap: editQuery((url) => url.searchParams.delete('order_by')),
  },
  {
    name: 'sort_by=scoring is ignored',
    rule: 'ORDER',
    evidence: /^expected scores non-increasing, got score [\d.]+ after [\d.]+ at \d+$/,
    wrap: editQuery((url) => {
      if (url.searchParams.get('sort_by') === 'scoring') url.searchParams.delete('sort_by');
    }),
  },
  {
    name: 'order_by=asc is ignored when sorting by score',
    rule: 'ORDER',
    evidence: /^expected scores non-decreasing, got score [\d.]+ after [\d.]+ at \d+$/,
    wrap: editQuery((url) => {
      if (url.searchParams.get('sort_by') === 'scoring') url.searchParams.delete('order_by');
    }),
  },
  {
    name: 'predictions are off by one',
    rule: 'PRED',
    evidence: /^expected (\d+) predictions, one per item, got (?!\1$)\d+$/,
    wrap: editAnswer(isScoring, (body) => {
      predictionsOf(body)?.shift();
    }),
  },
  {
    name: 'meta.count of a scoring answer is one more than its predictions',
    rule: 'PRED',
    evidence: /^expected meta\.count predictions, got \d+$/,
    wrap: editAnswer(isScoring, (body) => {
      const meta = metaOf(body);
      if (meta) meta.count += 1;
    }),
  },
  {
    name: 'prediction pairs do not sum to 1',
    rule: 'PRED',
    evidence: /^expected predictions\[0\] summing to 1, got \[[\d.]+,[\d.]+\]$/,
    wrap: editAnswer(isScoring, (body) => {
      const predictions = predictionsOf(body);
      if (predictions) objAt(body, 'data').predictions = predictions.map((p) => [p[1], p[1]]);
    }),
  },
  {
    name: 'prediction pairs carry a third number',
    rule: 'PRED',
    evidence: /^expected predictions\[0\] two numbers in \[0, 1\], got \[[\d.]+,[\d.]+,0\]$/,
    wrap: editAnswer(isScoring, (body) => {
      for (const p of predictionsOf(body) ?? []) p.push(0);
    }),
  },
  {
    name: 'predictions are strings',
    rule: 'PRED',
    evidence: /^expected predictions\[0\] two numbers in \[0, 1\], got \["[\d.]+","[\d.]+"\]$/,
    wrap: editAnswer(isScoring, (body) => {
      const predictions = predictionsOf(body);
      if (predictions) objAt(body, 'data').predictions = predictions.map((p) => p.map(String));
    }),
  },
  {
    name: 'predictions are percentages',
    rule: 'PRED',
    evidence: /^expected predictions\[0\] two numbers in \[0, 1\], got \[[\d.]+,[\d.]+\]$/,
    wrap: editAnswer(isScoring, (body) => {
      const predictions = predictionsOf(body);
      if (predictions)
        objAt(body, 'data').predictions = predictions.map((p) => p.map((x) => x * 100));
    }),
  },
  {
    name: 'the first share of each prediction is one less than it should be',
    rule: 'PRED',
    evidence: /^expected predictions\[0\] two numbers in \[0, 1\], got \[-[\d.]+,[\d.]+\]$/,
    wrap: editAnswer(isScoring, (body) => {
      const predictions = predictionsOf(body);
      if (predictions)
        objAt(body, 'data').predictions = predictions.map((p) => [(p[0] as number) - 1, p[1]]);
    }),
  },
  {
    name: 'score_threshold is ignored',
    rule: 'PRED',
    evidence: /^expected every score >= score_threshold=[\d.]+, got \[[\d.]+,[\d.]+\]$/,
    wrap: editQuery((url) => url.searchParams.delete('score_threshold')),
  },
  {
    name: 'a threshold adds to the total instead of dropping items',
    rule: 'PRED',
    evidence: /^expected total <= \d+ \(a threshold only drops items\), got \d+$/,
    wrap: thresholdAddsToTotal,
  },
  {
    name: 'scores drift between calls',
    rule: 'STABLE',
    evidence: /^expected the data of the first answer .*, got \{"profiles"/,
    wrap: (fetch) => {
      let drift = 0;
      return editAnswer(
        (url) => isScoring(url) || isGrading(url),
        (body) => {
          drift = (drift + 1) % 7;
          const nudge = (p: number[] | null) =>
            p === null
              ? p
              : [
                  Math.max(0, (p[0] as number) - drift / 1000),
                  Math.min(1, (p[1] as number) + drift / 1000),
                ];
          const [predictions, scores] = [predictionsOf(body), scoresOf(body)];
          if (predictions) objAt(body, 'data').predictions = predictions.map(nudge);
          if (scores) objAt(body, 'data').scores = scores.map(nudge);
        },
      )(fetch);
    },
  },
  {
    // Only a request that sorts by score sees it: STABLE must ask for that order too.
    name: 'the score ranking swaps its first two items on every other call',
    rule: 'STABLE',
    evidence: /^expected the data of the first answer .*, got \{"profiles"/,
    wrap: (fetch) => {
      let calls = 0;
      return editAnswer(
        (url) => url.searchParams.get('sort_by') === 'scoring',
        (body) => {
          calls++;
          const list = listOf(body);
          const predictions = predictionsOf(body);
          if (calls % 2 === 1 || list.length < 2 || !predictions) return;
          [list[0], list[1]] = [list[1], list[0]];
          [predictions[0], predictions[1]] = [nth(predictions, 1), nth(predictions, 0)];
        },
      )(fetch);
    },
  },
  {
    name: 'meta.total differs between two identical calls',
    rule: 'STABLE',
    evidence:
      /^expected meta \{"page":1,.*"total":(\d+)\}, got \{"page":1,.*"total":(?!\1\})\d+\}$/,
    wrap: (fetch) => {
      let calls = 0;
      return editAnswer(isList, (body) => {
        calls++;
        const meta = metaOf(body);
        if (meta && calls % 2 === 0) meta.total += 1;
      })(fetch);
    },
  },
];
