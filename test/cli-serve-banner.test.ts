import { describe, expect, it } from 'vitest';
import { announcement, answerFlags } from '../src/cli/commands/serve-banner.ts';
import { serveSettings } from '../src/cli/commands/serve-settings.ts';
import { mockApp } from './support/mock-app.ts';

const { app } = mockApp();
const banner = (args: string[]) =>
  announcement(app, serveSettings(args), 'http://127.0.0.1:4010', 42, performance.now());

describe("hrmock serve's banner", () => {
  it('prints the /docs URL', () => {
    expect(banner([])).toContain(
      'Docs: http://127.0.0.1:4010/docs   Live page: http://127.0.0.1:4010/_mock/ui\n',
    );
  });

  it("names no flag when answers are the plain mock's", () => {
    expect(banner(['--port', '0', '--quiet'])).not.toContain('Answers changed by');
  });

  it('names every flag given that changes answers', () => {
    const args = ['--latency', '100-300', '--fail-rate', '0.1', '--rate-limit', '5/s'];
    expect(answerFlags(serveSettings(args))).toEqual([
      '--latency 100-300 (ms)',
      '--fail-rate 0.1',
      '--rate-limit 5/s',
    ]);
    expect(banner(args)).toContain(
      'Answers changed by: --latency 100-300 (ms), --fail-rate 0.1, --rate-limit 5/s\n',
    );
  });

  it('names the fixtures folder with its mode, and a replay', () => {
    const settings = serveSettings([
      '--fixtures',
      'my-data',
      '--fixtures-mode',
      'replace',
      '--replay',
      'rec',
      '--replay-strict',
    ]);
    expect(answerFlags(settings)).toEqual([
      '--fixtures my-data (replace)',
      '--replay rec --replay-strict',
    ]);
  });

  it("says merge adds the folder's profiles to the generated ones", () => {
    // The app serves 600 profiles and 150 jobs: 100 and 50 beyond the 500 and 100 generated.
    expect(banner(['--fixtures', 'my-data', '--profiles', '500', '--jobs', '100'])).toContain(
      '\nFixtures from my-data, merge: your 100 profiles and 50 jobs added to the generated 500 and 100\n',
    );
  });

  it("says merge with nothing of the folder's own still serves the generated data", () => {
    expect(banner(['--fixtures', 'my-data', '--profiles', '600', '--jobs', '150'])).toContain(
      'merge: your 0 profiles and 0 jobs added to the generated 600 and 150 (--fixtures-mode replace serves only yours)\n',
    );
  });

  it("says replace serves only the folder's profiles", () => {
    expect(banner(['--fixtures', 'my-data', '--fixtures-mode', 'replace'])).toContain(
      '\nFixtures from my-data, replace: only your 600 profiles and 150 jobs\n',
    );
  });

  it('says nothing of fixtures without --fixtures', () => {
    expect(banner([])).not.toContain('Fixtures');
  });
});
