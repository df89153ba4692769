import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { canRun, type Need, setup, summary, teardown } from './support/skips.ts';
import { tempDir } from './support/temp-dir.ts';

const browser: Need = {
  tests: 'the browser tests',
  missing: 'no Chromium at /nowhere/chromium',
  install: 'apt-get install chromium',
  requiredBy: 'HRMOCK_REQUIRE_BROWSER',
};
const java: Need = {
  tests: 'the Specmatic tests',
  missing: '`java` is not on PATH',
  install: 'apt-get install openjdk-17-jre-headless',
  requiredBy: 'HRMOCK_REQUIRE_JAVA',
};

describe('a test that needs a missing tool', () => {
  it.each([{ CI: 'true' }, { CI: '1' }, { HRMOCK_REQUIRE_BROWSER: '1' }])(
    'fails under %j, saying what to install',
    (env) => {
      expect(() => canRun(browser, false, env)).toThrow(
        'the browser tests cannot run: no Chromium at /nowhere/chromium. Install it (apt-get install chromium); CI=true or HRMOCK_REQUIRE_BROWSER=1 requires it',
      );
    },
  );

  it('runs when the tool is there, on CI or not', () => {
    expect(canRun(browser, true, { CI: 'true' })).toBe(true);
    expect(canRun(browser, true, {})).toBe(true);
  });

  it("is skipped off CI, noted in the run's file and not printed there", async () => {
    const file = join(await tempDir('skips'), 'skips.jsonl');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(canRun(browser, false, { CI: 'false', HRMOCK_SKIPS_FILE: file })).toBe(false);
      expect(canRun(browser, false, { HRMOCK_SKIPS_FILE: file })).toBe(false);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

describe("a run's skips", () => {
  it('are summed up in one line, each group once, with how to run it', () => {
    const lines = [browser, java, browser].map((n) => JSON.stringify(n));
    expect(summary(lines)).toBe(
      'skipped the browser tests (no Chromium at /nowhere/chromium: apt-get install chromium); the Specmatic tests (`java` is not on PATH: apt-get install openjdk-17-jre-headless). Install what is named to run them; CI=true or HRMOCK_REQUIRE_BROWSER=1 / HRMOCK_REQUIRE_JAVA=1 makes a missing one fail.',
    );
  });

  it('are printed once by the teardown, which removes their file', () => {
    const before = process.env.HRMOCK_SKIPS_FILE;
    const printed: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      setup();
      const file = process.env.HRMOCK_SKIPS_FILE as string;
      canRun(java, false, { HRMOCK_SKIPS_FILE: file });
      canRun(java, false, { HRMOCK_SKIPS_FILE: file });
      teardown();
      expect(existsSync(file)).toBe(false);
    } finally {
      stderr.mockRestore();
      if (before === undefined) delete process.env.HRMOCK_SKIPS_FILE;
      else process.env.HRMOCK_SKIPS_FILE = before;
    }
    expect(printed.join('').trim().split('\n')).toEqual([summary([JSON.stringify(java)])]);
  });
});
