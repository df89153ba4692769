import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run here. CI installs Debian's chromium and sets
 * HRMOCK_REQUIRE_BROWSER=1, so a missing browser fails there instead of skipping.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.HRMOCK_REQUIRE_BROWSER === '1')
    throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium`);
  return false;
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
