import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OnEvent } from '@boardbot/core';
import type { EmulatorOptions } from '@boardbot/emulator';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, beforeAll } from 'vitest';
import { BotProcess, buildFixtureBot } from './bot-process.js';

/** The harness's own bot, never started: it only provides the emulator, people and boards. */
class NeverStarted {
  @OnEvent('never.sent')
  noop() {}
}

/** An emulator (in process), people, and a state directory for the bot process. */
export interface Scenario {
  platform: TestPlatform;
  stateDir: string;
  /** Starts the bot process on this platform (not awaited: call `started()`). */
  startBot(extra?: Record<string, string>): BotProcess;
  /** Every bot process's warnings and errors, for a failure message. */
  report(): string;
  close(): Promise<void>;
}

/**
 * Sets up a platform for the restart tests: its rate limit raised so the bot is never slowed by
 * it, and a fresh state directory.
 *
 * @param emulator - more emulator options (e.g. a short retention)
 */
export async function scenario(emulator: Omit<EmulatorOptions, 'db' | 'seed' | 'logger'> = {}): Promise<Scenario> {
  const platform = await createTestPlatform({
    handlers: [NeverStarted],
    start: false,
    emulator: { rateLimit: { requests: 1_000_000 }, ...emulator },
  });
  const stateDir = mkdtempSync(join(tmpdir(), 'boardbot-restart-'));
  const bots: BotProcess[] = [];
  return {
    platform,
    stateDir,
    startBot: (extra = {}) => {
      const bot = new BotProcess({ token: platform.token, apiUrl: platform.urls.apiUrl, stateDir, extra });
      bots.push(bot);
      return bot;
    },
    report: () =>
      bots
        .map((bot, i) => {
          const notable = bot.lines.filter((l) => typeof l.level === 'number' && l.level >= 40);
          return `bot ${i + 1}: ${notable.map((l) => JSON.stringify(l)).join('\n  ') || 'no warnings'}`;
        })
        .join('\n'),
    close: async () => {
      for (const bot of bots) await bot.kill();
      await platform.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Options of one scenario's emulator (`scenario`'s parameter). */
export type ScenarioEmulator = Parameters<typeof scenario>[0];

/**
 * What every restart test file sets up: the fixture bot built once for the file, and a scenario per
 * test, closed (its bot processes killed, its emulator stopped) after that test.
 *
 * @returns opens the test's scenario
 */
export function useScenario(): (emulator?: ScenarioEmulator) => Promise<Scenario> {
  beforeAll(() => buildFixtureBot(), 120_000);
  let current: Scenario | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (emulator) => {
    current = await scenario(emulator);
    return current;
  };
}
