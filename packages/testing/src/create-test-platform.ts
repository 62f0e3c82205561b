import { createBot, isBotDefinition, MemoryPositionStore, MemorySessionStore } from '@boardbot/core';
import { createEmulator } from '@boardbot/emulator';
import { ControlClient } from '@boardbot/emulator/control';
import { ActivityFeed } from './activity/activity-feed.js';
import { Journal } from './activity/journal.js';
import { BotObserver } from './bot/bot-observer.js';
import { TestBot } from './bot/test-bot.js';
import { ClosingFetch } from './control/closing-fetch.js';
import { TestOptionsError } from './errors.js';
import { CapturedLogs } from './logs/captured-logs.js';
import {
  type BotFromDefinition,
  type BotFromFactory,
  DEFAULT_TEST_PLATFORM_OPTIONS,
  type TestBotBase,
  type TestBotOptions,
  type TestPlatformOptions,
} from './options.js';
import { Directory } from './platform/directory.js';
import { TestPlatform } from './platform/test-platform.js';
import { Waiters } from './waiting/waiters.js';

/** The seeded app the bot runs as (docs/control-api.md "default seed"). */
const SEEDED_APP = 'dev-bot';

/**
 * Starts a platform for a test: an emulator of its own (in-memory database, default seed, random
 * port on 127.0.0.1), the real bot runtime (`createBot`, log captured, no signal handling)
 * connected to it over real HTTP and SSE, and people to talk to it. Test files run in parallel
 * without seeing each other. Close it with `platform.close()`.
 *
 * @param options - the bot's definition as `bot` (or the module exporting it) with what the test
 *   fakes, any `createBot` option (`handlers`, `providers`...), or a `bot` factory; and the harness's
 *   own options (`timeoutMs`, `emulator`, `start`, `board`, `logLevel`)
 * @throws BotStartError (with the bot's log) when the bot cannot start
 * @example
 * const platform = await createTestPlatform({ bot: definition, providers: [{ provide: Dice, useValue: loaded }] });
 * @example
 * const platform = await createTestPlatform({ handlers: [Roll], providers: [Dice] });
 * const answer = await platform.person('alice').invoke('roll', { sides: 20 });
 * expect(answer.content).toMatch(/You rolled \d+/);
 * await platform.close();
 */
export async function createTestPlatform(options: TestPlatformOptions): Promise<TestPlatform> {
  const d = DEFAULT_TEST_PLATFORM_OPTIONS;
  const {
    timeoutMs = d.timeoutMs,
    logLevel = d.logLevel,
    emulator: emulatorOptions = d.emulator,
    start = d.start,
    board = d.board,
    bot,
    ...botOptions
  } = options;
  const definition = definitionOf(bot);
  const factory = typeof bot === 'function' ? bot : undefined;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new TestOptionsError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  }
  if (bot !== undefined && !factory && !definition) {
    throw new TestOptionsError(
      "bot must be the bot's definition (defineBot), a module whose default export is one, or a factory (base) => createBot({ ...base, ... }).",
    );
  }
  if (bot === undefined && !Array.isArray((botOptions as { handlers?: unknown }).handlers)) {
    throw new TestOptionsError(
      'createTestPlatform needs the bot: give { handlers: [...] } (and any other createBot option), { bot: definition } (its defineBot, or the module exporting it), or { bot: (base) => createBot({ ...base, ... }) }.',
    );
  }

  const emulator = await createEmulator({ ...emulatorOptions, db: ':memory:', seed: true, logger: false });
  const opened: { close(): Promise<void> }[] = [emulator];
  try {
    const urls = await emulator.listen({ host: '127.0.0.1', port: 0 });
    const gate = new ClosingFetch();
    const control = new ControlClient({ url: urls.controlUrl, adminKey: emulator.adminKey, fetch: gate.fetch });
    opened.unshift(gate);
    const app = (await control.state()).apps.find((a) => a.name === SEEDED_APP);
    if (!app) throw new TestOptionsError(`The emulator's seed has no "${SEEDED_APP}" app.`);
    const directory = new Directory(control);
    await directory.refresh();

    const waiters = new Waiters();
    const journal = new Journal(waiters);
    const feed = await ActivityFeed.open({
      controlUrl: urls.controlUrl,
      adminKey: emulator.adminKey,
      journal,
      onLost: (error) => waiters.fail(error),
    });
    opened.unshift(feed);

    const logs = new CapturedLogs(logLevel);
    const observer = new BotObserver(waiters);
    const given = botOptions as Partial<TestBotOptions>;
    const base: TestBotBase = {
      token: emulator.devToken,
      apiUrl: urls.apiUrl,
      logger: logs.logger,
      handleSignals: false,
      gateway: observer.factory(factory ? undefined : (given.gateway ?? definition?.options.gateway)),
      position: given.position ?? new MemoryPositionStore(),
      sessions: given.sessions ?? new MemorySessionStore(),
    };
    // The harness's base goes last: the bot must use the test platform's token, URL, log and gateway.
    const runtime = factory
      ? factory(base)
      : definition
        ? createBot(definition, { ...given, ...base })
        : createBot({ ...(given as TestBotOptions), ...base });
    const bot = new TestBot({
      runtime,
      app: { id: app.id, name: app.name, bot_user_id: app.bot_user_id },
      journal,
      waiters,
      logs,
      observer,
      boardName: (id) => directory.boardName(id),
      timeoutMs,
    });
    const platform = new TestPlatform({
      emulator,
      urls,
      control,
      controlGate: gate,
      directory,
      journal,
      waiters,
      feed,
      observer,
      bot,
      logs,
      timeoutMs,
      defaultBoard: board,
    });
    opened.splice(0, opened.length, platform);
    if (start) await platform.start();
    return platform;
  } catch (error) {
    for (const part of opened) await part.close().catch(() => {});
    throw error;
  }
}

/** The bot's definition given as `bot`, or as the default export of the module given. */
function definitionOf(bot: BotFromDefinition['bot'] | BotFromFactory['bot'] | undefined) {
  if (isBotDefinition(bot)) return bot;
  const exported = typeof bot === 'object' && bot !== null ? (bot as { default?: unknown }).default : undefined;
  return isBotDefinition(exported) ? exported : undefined;
}
