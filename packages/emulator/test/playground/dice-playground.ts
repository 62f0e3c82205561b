import { mkdirSync } from 'node:fs';
import type { Bot } from '@boardbot/core';
import { createEmulator, type Emulator, type EmulatorOptions, type EmulatorUrls } from '@boardbot/emulator';
import { type Board, ControlClient, type UserProfile } from '@boardbot/emulator/control';
import type { Browser } from 'playwright-core';
import { createDiceBot } from '../../../../examples/dice/src/bot.js';
import { launchChromium } from './browser.js';
import { ensurePlaygroundBuilt } from './build-page.js';

/** Where the browser tests write their screenshots (made by {@link startDicePlayground}). */
export const SCREENSHOTS = new URL('../../../../test-output/playground/', import.meta.url).pathname;

/**
 * A seeded emulator on loopback with the dice bot of examples/dice answering on the real runtime, and
 * headless Chromium to open its playground.
 */
export interface DicePlayground {
  emulator: Emulator;
  urls: EmulatorUrls;
  /** The control API, with the emulator's admin key. */
  control: ControlClient;
  bot: Bot;
  browser: Browser;
  /** The seed's board `general`. */
  general: Board;
  /** The seed's people, by username. */
  people: Record<string, UserProfile>;
  /** Closes the browser, stops the bot, then closes the emulator. */
  close(): Promise<void>;
}

/**
 * Builds the playground page if needed, starts a fresh emulator (its own in-memory database, so
 * nothing is shared between test files) and the dice bot on it, with a predictable die: every roll
 * lands on the same face, so a test can read the answer. Then launches Chromium.
 *
 * @param options - `now`, to move the emulator's clock (an interaction token's expiry)
 */
export async function startDicePlayground(options: Pick<EmulatorOptions, 'now'> = {}): Promise<DicePlayground> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await ensurePlaygroundBuilt();
  const emulator = await createEmulator({ db: ':memory:', seed: true, logger: false, ...options });
  const urls = await emulator.listen({ host: '127.0.0.1', port: 0 });
  const control = new ControlClient({ url: urls.controlUrl, adminKey: emulator.adminKey });
  const bot = createDiceBot({
    token: emulator.devToken,
    apiUrl: urls.apiUrl,
    random: () => 0.5,
    logger: false,
    handleSignals: false,
    // Its commands are text commands too, for the composer's `!` suggestions.
    textCommands: { all: true },
  });
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await bot.stop();
    await emulator.close();
  };
  try {
    await bot.start();
    browser = await launchChromium();
    const state = await control.state();
    const general = state.boards.find((b) => b.name === 'general') as Board;
    const people = Object.fromEntries(state.users.map((u) => [u.username, u]));
    return { emulator, urls, control, bot, browser, general, people, close };
  } catch (error) {
    // A half-started playground must not keep the emulator, the bot or Chromium running.
    await close();
    throw error;
  }
}
