import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Loaded, LoadOptions } from '../src/cli/fixtures-dir.ts';
import { type FixturesWatch, watchFixtures } from '../src/cli/fixtures-watch.ts';
import { createApp } from '../src/http/app.ts';
import type { StoreData } from '../src/store/types.ts';
import { generated, until } from './support/fixtures-folder.ts';
import { tempDir } from './support/temp-dir.ts';

/** Each load the watcher starts, finished by the test (`finish`) or by its signal. */
type Call = {
  options: LoadOptions | undefined;
  finish: (loaded: Loaded) => void;
  settled: boolean;
  /** Loads still running when this one started. */
  alongside: number;
};
const calls = vi.hoisted((): Call[] => []);

vi.mock('../src/cli/fixtures-dir.ts', () => ({
  loadFixturesDir: (_dir: string, _mode: string, _generated: StoreData, options?: LoadOptions) =>
    new Promise<Loaded>((resolve) => {
      const call: Call = {
        options,
        settled: false,
        alongside: calls.filter((c) => !c.settled).length,
        finish: (loaded) => {
          call.settled = true;
          resolve(loaded);
        },
      };
      options?.signal?.addEventListener('abort', () =>
        call.finish({ ok: false, problems: [], superseded: true }),
      );
      calls.push(call);
    }),
}));

const watches: FixturesWatch[] = [];
afterEach(() => {
  for (const watch of watches.splice(0)) watch.close();
  calls.splice(0);
});

/** The generated data with only its first `profiles` profiles. */
function withProfiles(profiles: number): Loaded {
  const list = generated.profiles;
  const data = {
    ...generated,
    profiles: { length: profiles, at: (i: number) => (i < profiles ? list.at(i) : undefined) },
  } as unknown as StoreData;
  return { ok: true, data, counts: { profiles, jobs: generated.jobs.length } };
}

describe('watching a fixtures folder', () => {
  it('serves the newer change when it arrives while an older load is still running', async () => {
    const dir = await tempDir('watched');
    const app = createApp({ data: generated, log: false });
    const said: string[] = [];
    watches.push(
      watchFixtures(dir, 'merge', generated, app.state, { maxDepth: 64, say: (l) => said.push(l) }),
    );
    await writeFile(join(dir, 'profiles.json'), 'large');
    await until(() => calls.length === 1);
    await writeFile(join(dir, 'profiles.json'), 'small');
    await until(() => calls.length === 2);
    calls[1]?.finish(withProfiles(21));
    calls[0]?.finish(withProfiles(40));
    // Both loads replacing the data, or the newer one alone saying so: either way it is over.
    await until(
      () => app.state.generation === 2 || said.some((line) => line.startsWith('reloaded')),
    );
    expect(app.state.store.profile.docs.length).toBe(21);
    expect(app.state.generation).toBe(1);
    expect(said.join('\n')).toMatch(/superseded[\s\S]*reloaded .*: 21 profiles/);
  });

  it('runs one load at a time, the last change last', async () => {
    const dir = await tempDir('watched');
    const app = createApp({ data: generated, log: false });
    watches.push(
      watchFixtures(dir, 'merge', generated, app.state, { maxDepth: 64, say: () => {} }),
    );
    for (const [i, text] of ['one', 'two', 'three'].entries()) {
      await writeFile(join(dir, 'profiles.json'), text);
      await until(() => calls.length === i + 1);
    }
    expect(calls.map((call) => call.alongside)).toEqual([0, 0, 0]);
    expect(calls.map((call) => call.options?.signal?.aborted)).toEqual([true, true, false]);
    calls[2]?.finish(withProfiles(7));
    await until(() => app.state.store.profile.docs.length === 7);
  });
});
