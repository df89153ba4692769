import { at, isObject } from '../../contract/suite/json-shape.ts';
import { listAt, objAt } from '../support/json-reads.ts';
import { editAnswer, editQuery, isGrading, listOf, type Mutant } from './rewrite.ts';

const asksFull = (url: URL) => /return_\w+=true/.test(url.search);

/** Mutants of grading: what GRD-DEFAULT, GRD-FULL, GRD-ALIGN and OLD-CLIENT must catch. */
export const GRADING_MUTANTS: Mutant[] = [
  {
    name: 'grading defaults to full objects',
    rule: 'GRD-DEFAULT',
    evidence:
      /^expected the same data as with return_profile=false \(.*\), got \{"profiles":\[\{"id":/,
    wrap: editQuery((url) => {
      if (!isGrading(url)) return;
      const flag = url.pathname.startsWith('/profiles') ? 'return_profile' : 'return_job';
      if (!url.searchParams.has(flag)) url.searchParams.set(flag, 'true');
    }),
  },
  {
    // With and without `=false` alike, so that the two answers agree and only the field shows.
    name: 'minimal items carry a field beyond the minimal set',
    rule: 'GRD-DEFAULT',
    evidence:
      /^expected minimal profiles \(key, reference, source_key, created_at, updated_at only\), got an item with archived_at$/,
    wrap: editAnswer(
      (url) => isGrading(url) && !asksFull(url),
      (body) => {
        for (const item of listOf(body)) if (isObject(item)) item.archived_at = null;
      },
    ),
  },
  {
    name: 'full items disagree with their minimal twins',
    rule: 'GRD-FULL',
    evidence:
      /^expected item 0\.updated_at = \S+ as in the minimal answer, got 2001-01-01T00:00:00\.000Z$/,
    wrap: editAnswer(
      (url) => isGrading(url) && asksFull(url),
      (body) => {
        for (const item of listOf(body))
          if (isObject(item)) item.updated_at = '2001-01-01T00:00:00.000Z';
      },
    ),
  },
  {
    name: 'return_profile=true is ignored',
    rule: 'GRD-FULL',
    evidence: /^expected item 0 a full Profile, got .*must have required property 'info'/,
    wrap: editQuery((url) => {
      url.searchParams.delete('return_profile');
      url.searchParams.delete('return_job');
    }),
  },
  {
    name: 'asking for full items changes the scores',
    rule: 'GRD-FULL',
    evidence: /^expected scores unchanged by return_profile, got \[\[/,
    wrap: editAnswer(
      (url) => isGrading(url) && asksFull(url),
      (body) => {
        const moved = (s: number) => (s > 0.5 ? s - 0.25 : s + 0.25);
        objAt(body, 'data').scores = listAt(body, 'data', 'scores').map((p) =>
          Array.isArray(p) ? [1 - moved(Number(p[1])), moved(Number(p[1]))] : p,
        );
      },
    ),
  },
  {
    name: 'asking for full items drops the last one',
    rule: 'GRD-FULL',
    evidence: /^expected (\d+) profiles, as without return_profile, got (?!\1$)\d+$/,
    wrap: editAnswer(
      (url) => isGrading(url) && asksFull(url),
      (body) => {
        const data = objAt(body, 'data');
        for (const field of [data.profiles ? 'profiles' : 'jobs', 'scores', 'errors'])
          listAt(data, field).pop();
      },
    ),
  },
  {
    name: 'asking for full items answers null for a gradable item',
    rule: 'GRD-FULL',
    evidence: /^expected item 0 null exactly when its minimal twin is, got null$/,
    wrap: editAnswer(
      (url) => isGrading(url) && asksFull(url),
      (body) => {
        listOf(body)[0] = null;
      },
    ),
  },
  {
    name: 'asking for full items changes the errors',
    rule: 'GRD-FULL',
    evidence: /^expected errors unchanged by return_profile, got \[.*"Could not grade\."/,
    wrap: editAnswer(
      (url) => isGrading(url) && asksFull(url),
      (body) => {
        const data = objAt(body, 'data');
        data.errors = listAt(data, 'errors').map((e) => e && 'Could not grade.');
      },
    ),
  },
  {
    name: 'grading answers in key order, not request order',
    rule: 'GRD-ALIGN',
    evidence: /^expected profiles\[0\]\.key = [0-9a-f]{40} \(request order\), got [0-9a-f]{40}$/,
    wrap: editAnswer(isGrading, (body) => {
      if (body.code !== 200) return;
      const data = objAt(body, 'data');
      const list = data.profiles ? 'profiles' : 'jobs';
      const [scores, errors] = [listAt(data, 'scores'), listAt(data, 'errors')];
      const rows = listAt(data, list).map((item, i) => [item, scores[i], errors[i]] as const);
      rows.sort((a, b) => String(at(a[0], 'key')).localeCompare(String(at(b[0], 'key'))));
      data[list] = rows.map((r) => r[0]);
      data.scores = rows.map((r) => r[1]);
      data.errors = rows.map((r) => r[2]);
    }),
  },
  {
    name: 'an item that cannot be graded gets a score as well as its error',
    rule: 'GRD-ALIGN',
    evidence:
      /^expected entry \d+: a score, or else an error saying why, got score \[0\.5,0\.5\], error /,
    wrap: editAnswer(isGrading, (body) => {
      if (body.code !== 200) return;
      const data = objAt(body, 'data');
      const errors = listAt(data, 'errors');
      data.scores = listAt(data, 'scores').map((p, i) => (errors[i] === null ? p : [0.5, 0.5]));
    }),
  },
  {
    name: 'grading answers one error fewer than items',
    rule: 'GRD-ALIGN',
    evidence: /^expected errors with (\d+) entries, got (?!\1$)\d+$/,
    wrap: editAnswer(isGrading, (body) => {
      if (body.code === 200) listAt(body, 'data', 'errors').pop();
    }),
  },
  {
    name: 'a minimal field is renamed',
    rule: 'OLD-CLIENT',
    evidence:
      /^expected an answer valid under history\/.*, got .*must NOT have additional properties: sourceKey/,
    wrap: editAnswer(isGrading, (body) => {
      for (const item of listOf(body)) {
        if (isObject(item) && 'source_key' in item) {
          item.sourceKey = item.source_key;
          delete item.source_key;
        }
      }
    }),
  },
];
