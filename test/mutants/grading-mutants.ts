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
        for (const item of listOf(body)) if (item) item.archived_at = null;
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
        for (const item of listOf(body)) if (item) item.updated_at = '2001-01-01T00:00:00.000Z';
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
        body.data.scores = body.data.scores.map((p: number[] | null) =>
          p === null ? p : [1 - moved(p[1] as number), moved(p[1] as number)],
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
        for (const field of [body.data.profiles ? 'profiles' : 'jobs', 'scores', 'errors'])
          body.data[field].pop();
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
        body.data.errors = body.data.errors.map((e: string | null) => e && 'Could not grade.');
      },
    ),
  },
  {
    name: 'grading answers in key order, not request order',
    rule: 'GRD-ALIGN',
    evidence: /^expected profiles\[0\]\.key = [0-9a-f]{40} \(request order\), got [0-9a-f]{40}$/,
    wrap: editAnswer(isGrading, (body) => {
      if (body.code !== 200) return;
      const list = body.data.profiles ? 'profiles' : 'jobs';
      const rows = body.data[list].map((item: any, i: number) => [
        item,
        body.data.scores[i],
        body.data.errors[i],
      ]);
      rows.sort((a: any[], b: any[]) => String(a[0]?.key).localeCompare(String(b[0]?.key)));
      body.data[list] = rows.map((r: any[]) => r[0]);
      body.data.scores = rows.map((r: any[]) => r[1]);
      body.data.errors = rows.map((r: any[]) => r[2]);
    }),
  },
  {
    name: 'an item that cannot be graded gets a score as well as its error',
    rule: 'GRD-ALIGN',
    evidence:
      /^expected entry \d+: a score, or else an error saying why, got score \[0\.5,0\.5\], error /,
    wrap: editAnswer(isGrading, (body) => {
      if (body.code !== 200) return;
      body.data.scores = body.data.scores.map((p: unknown, i: number) =>
        body.data.errors[i] === null ? p : [0.5, 0.5],
      );
    }),
  },
  {
    name: 'grading answers one error fewer than items',
    rule: 'GRD-ALIGN',
    evidence: /^expected errors with (\d+) entries, got (?!\1$)\d+$/,
    wrap: editAnswer(isGrading, (body) => {
      if (body.code === 200) body.data.errors.pop();
    }),
  },
  {
    name: 'a minimal field is renamed',
    rule: 'OLD-CLIENT',
    evidence:
      /^expected an answer valid under history\/.*, got .*must NOT have additional properties: sourceKey/,
    wrap: editAnswer(isGrading, (body) => {
      for (const item of listOf(body)) {
        if (item && 'source_key' in item) {
          item.sourceKey = item.source_key;
          delete item.source_key;
        }
      }
    }),
  },
];
