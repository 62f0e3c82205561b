import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, installed by `.ci/system-deps`. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Launches headless Chromium for the browser tests. The background-networking flags matter on a
 * closed network: without them Chromium keeps trying to reach Google's services and slows down.
 */
export function launchChromium(): Promise<Browser> {
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
