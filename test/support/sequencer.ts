import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files start in: projects one after another, as vitest has them, and within a project
 * the longest first, so that no long file starts last and runs on alone. How long a file takes
 * comes from vitest's own cache of the last run here; on a fresh clone, which has none, from
 * test/durations.json (written by `npm run test:durations`). A file in neither goes first, as
 * vitest runs unknown files first. Only the order depends on it: every file runs either way.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const committed = committedDurations();
    const durationOf = (file: TestSpecification): number => {
      const path = relative(root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      return cached?.duration ?? committed[path] ?? Number.POSITIVE_INFINITY;
    };
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return durationOf(b) - durationOf(a);
    });
  }
}

function committedDurations(): Record<string, number> {
  try {
    const text = readFileSync(new URL('../durations.json', import.meta.url), 'utf8');
    return JSON.parse(text) as Record<string, number>;
  } catch {
    return {};
  }
}
