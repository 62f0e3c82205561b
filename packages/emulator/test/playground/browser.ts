import { type Browser, chromium } from 'playwright-core';
import { chromiumPath } from '../../../../scripts/ensure-test-tools.mjs';

/**
 * The Chromium of the browser tests: `CHROMIUM_PATH`, else the system's, found (or installed) by
 * `scripts/ensure-test-tools.mjs` before `npm test` runs them.
 */
export const CHROMIUM_PATH = chromiumPath();

/**
 * Launches headless Chromium for the browser tests. The background-networking flags matter on a
 * closed network: without them Chromium keeps trying to reach Google's services and slows down.
 */
export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM_PATH) {
    throw new Error('No Chromium: run `node scripts/ensure-test-tools.mjs` (npm test does), or set CHROMIUM_PATH');
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
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
