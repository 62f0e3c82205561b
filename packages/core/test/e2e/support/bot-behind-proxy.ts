import type { Bot, BotOptions } from '@boardbot/core';
import type { EmulatorOptions } from '@boardbot/emulator';
import { HttpFaultProxy } from '@boardbot/test-support';
import { afterAll, beforeAll } from 'vitest';
import type { LogCapture } from './logs.js';
import { TestPlatform } from './platform.js';

/**
 * A seeded platform, an {@link HttpFaultProxy} in front of it, and a started bot that reaches the
 * platform only through the proxy: the proxy records what the bot sent on the wire, and can cut its
 * stream or answer for the platform.
 */
export interface BotBehindProxy {
  platform: TestPlatform;
  proxy: HttpFaultProxy;
  bot: Bot;
  /** The bot's log lines. */
  logs: LogCapture;
  /** Stops the bot, then closes the proxy and the platform. */
  close(): Promise<void>;
}

/**
 * Starts a fresh platform (its own emulator), the proxy and the bot; if a step fails, what was
 * started is closed before the error is thrown.
 *
 * @param bot - the bot's options (token and API URL are the platform's, through the proxy)
 * @param emulator - the emulator's options
 */
export async function startBotBehindProxy(
  bot: Omit<BotOptions, 'token' | 'apiUrl'>,
  emulator: EmulatorOptions = {},
): Promise<BotBehindProxy> {
  const platform = await TestPlatform.start(emulator);
  let proxy: HttpFaultProxy | undefined;
  let started: { bot: Bot; logs: LogCapture } | undefined;
  const close = async () => {
    await started?.bot.stop();
    await proxy?.close();
    await platform.close();
  };
  try {
    proxy = await HttpFaultProxy.start(platform.emu.urls?.url ?? '');
    started = platform.bot({ ...bot, apiUrl: proxy.apiUrl });
    await started.bot.start();
    return { platform, proxy, ...started, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * For the enclosing `describe`: starts a {@link BotBehindProxy} before its tests and closes it after
 * them (each suite its own). Returns what a test calls to get it.
 *
 * @example
 * const behind = useBotBehindProxy({ handlers: [WhoAmI] });
 * it('...', async () => {
 *   const { platform, proxy, logs } = behind();
 * });
 */
export function useBotBehindProxy(
  bot: Omit<BotOptions, 'token' | 'apiUrl'>,
  emulator: EmulatorOptions = {},
): () => BotBehindProxy {
  let behind: BotBehindProxy | undefined;
  beforeAll(async () => {
    behind = await startBotBehindProxy(bot, emulator);
  });
  afterAll(async () => {
    await behind?.close();
    behind = undefined;
  });
  return () => {
    if (!behind) throw new Error('useBotBehindProxy: the bot is not started (call it inside a test)');
    return behind;
  };
}
