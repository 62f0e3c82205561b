import type {
  Bot,
  BotDefinition,
  BotGateway,
  BotOptions,
  GatewayFactoryOptions,
  PositionStore,
  SessionStore,
} from '@boardbot/core';
import type { EmulatorOptions } from '@boardbot/emulator';
import type { Logger } from '@boardbot/protocol';
import type { Level } from 'pino';

/** What the harness hands a bot factory: spread it into `createBot` (it must reach the runtime). */
export interface TestBotBase {
  /** The seeded `dev-bot` app's token. */
  token: string;
  /** The in-process emulator's app API. */
  apiUrl: string;
  /** Captures the bot's log into `platform.logs` (nothing is printed). */
  logger: Logger;
  /** A test process must not exit on SIGINT because a bot said so. */
  handleSignals: false;
  /** The real gateway client, observed so that `settle()` knows what the bot received. */
  gateway: (options: GatewayFactoryOptions) => BotGateway;
  /**
   * The platform's resume point, in memory (never a file of the project): a bot restarted on the
   * same platform resumes where the stopped one was. A `position` option given to the harness wins.
   */
  position: PositionStore | false;
  /** Sessions in memory (never a file of the project), unless the harness was given a `sessions` store. */
  sessions: SessionStore;
}

/** The harness's own options. */
export interface HarnessOptions {
  /** How long each wait (an answer, `nextMessage`, `settle`) lasts before it fails with a report. @defaultValue 5000 */
  timeoutMs?: number;
  /** Lowest level of the bot's log kept in `platform.logs`. @defaultValue 'debug' */
  logLevel?: Level;
  /**
   * Options of the in-process emulator (rate limit, limits, clock, dev token). It always runs on
   * an in-memory database with the default seed, silent, on a random loopback port.
   * @defaultValue `{}`
   */
  emulator?: Omit<EmulatorOptions, 'db' | 'seed' | 'logger'>;
  /** Start the bot before `createTestPlatform` resolves. @defaultValue true */
  start?: boolean;
  /** The board people act on when a call names none. @defaultValue 'general' */
  board?: string;
}

/** The `createBot` options a test may give: every one but what the harness provides. */
export type TestBotOptions = Omit<BotOptions, 'token' | 'apiUrl' | 'logger' | 'handleSignals'>;

/** The bot from `createBot` options: everything but what the harness provides. */
export type BotFromOptions = TestBotOptions & { bot?: never };

/** A module that exports a bot's definition as its default export (`export default defineBot({...})`). */
export interface BotModule {
  /** The bot's definition. */
  readonly default: BotDefinition;
}

/**
 * The bot's own definition (`defineBot`), or the module that exports it: the test gives only what it
 * fakes beside it (a provider, a clock...), which the definition's checks run again with. A provider
 * given replaces the definition's for the same class; the others stay.
 */
export type BotFromDefinition = Partial<TestBotOptions> & {
  /** @example bot: definition, providers: [{ provide: Model, useValue: fakeModel }] */
  bot: BotDefinition | BotModule;
};

/** The bot from a factory, e.g. an example's `createDiceBot(options)`. */
export interface BotFromFactory {
  /**
   * Builds the bot; spread `base` into `createBot` so the harness can run and watch it.
   * @example bot: (base) => createDiceBot({ ...base, random: () => 0.5 })
   */
  bot: (base: TestBotBase) => Bot;
  handlers?: never;
}

/**
 * Options of `createTestPlatform`: the bot's definition (and what the test fakes), any `createBot`
 * option, or a bot factory; plus the harness's.
 */
export type TestPlatformOptions = HarnessOptions & (BotFromOptions | BotFromDefinition | BotFromFactory);

/** Defaults of {@link HarnessOptions}. */
export const DEFAULT_TEST_PLATFORM_OPTIONS = {
  timeoutMs: 5000,
  logLevel: 'debug',
  emulator: {},
  start: true,
  board: 'general',
} as const satisfies Required<HarnessOptions>;
