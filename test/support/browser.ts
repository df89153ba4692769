import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { canRun } from './skips.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run here: a missing Chromium fails them on CI (`CI=true` or
 * `HRMOCK_REQUIRE_BROWSER=1`) and skips them elsewhere, named in the run's summary.
 */
export function browserAvailable(): boolean {
  return canRun(
    {
      tests: 'the browser tests',
      missing: `no Chromium at ${CHROMIUM}`,
      install: 'apt-get install chromium, or set CHROMIUM_PATH',
      requiredBy: 'HRMOCK_REQUIRE_BROWSER',
    },
    existsSync(CHROMIUM),
  );
}

/** Headless Chromium with the flags this closed network needs (no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
