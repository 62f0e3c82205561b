import type { TracerProvider } from '@opentelemetry/api';
import type { ExhaustedInteraction } from '../commands/context.js';
import type { CommandSyncMode } from '../commands/sync/sync.js';
import type { OrderBy } from '../dispatch/ordering.js';
import type { HealthOptions } from '../health/health-options.js';
import type { Clock } from '../kernel/clock.js';
import type { Provider } from '../kernel/container.js';
import type { LoggerInput } from '../kernel/logger.js';
import type { Class } from '../kernel/metadata.js';
import type { BotGateway, BotRest, GatewayFactoryOptions } from '../kernel/ports.js';
import { RUNTIME_TEXTS } from '../kernel/translate.js';
import type { Plugin } from '../plugins/plugin.js';
import type { CooldownStore } from '../policies/cooldown-store.js';
import type { ErrorHook } from '../policies/on-error.js';
import { DEFAULT_REFUSAL_INTERVAL_MS } from '../policies/refusal-throttle.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { TextCommandOptions } from '../text-commands/options.js';
import type { PositionStore } from './position/position-store.js';
import type { ScaleAdapter } from './scale/scale-port.js';
import type { SignalSource } from './signals.js';

/** Options of `createBot`. Only `token` and `handlers` are required. */
export interface BotOptions {
  /** The app token (`BOARDBOT_TOKEN`). Never logged. */
  token: string;
  /**
   * Base URL of the app API, version prefix included.
   * @defaultValue `process.env.BOARDBOT_API_URL`, else `'http://127.0.0.1:8787/api/v1'` (the emulator)
   */
  apiUrl?: string;
  /** Classes with `@Command`, `@OnMessage`, `@OnEvent`... decorators; built once by the container. */
  handlers: readonly Class[];
  /** Plugins: bundles of handlers, providers, middleware, guards and hooks (see docs/plugins.md). @defaultValue `[]` */
  plugins?: readonly Plugin[];
  /** Classes (or values) the handlers' constructors may ask for. @defaultValue `[]` */
  providers?: readonly Provider[];
  /**
   * A logger (pino fits), pino options, or `false`. @defaultValue pino at `LOG_LEVEL` (else `info`)
   * with tokens redacted, pretty-printed when stdout is a terminal
   */
  logger?: LoggerInput;
  /**
   * How commands are invoked as text (`!roll 20`): the prefix, and whether every `@Command` can be
   * (`all`) or only those with `@Command({ text: true })`. See docs/commands-and-options.md, "Text
   * commands". @defaultValue `{ prefix: '!', all: false }`
   */
  textCommands?: TextCommandOptions;
  /** How `start()` treats registered commands. @defaultValue `'sync'` */
  commandSync?: CommandSyncMode;
  /** Handlers running at once, across ordering keys. @defaultValue 16 */
  concurrency?: number;
  /**
   * Which events are handled one at a time, in arrival order: those of one board (`'board'`), of one
   * person on one board (`'user'`), or none (`'none'`). See docs/production.md for what each costs.
   * @defaultValue `'board'`
   */
  orderBy?: OrderBy;
  /**
   * Where the resume point is kept, so a restarted bot handles what arrived while it was down, and
   * nothing twice: a `PositionStore` (`MemoryPositionStore` in tests, `@boardbot/redis` for replicas),
   * or `false` to keep none (a warning says what that costs).
   * @defaultValue a `FilePositionStore` under `stateDir`
   */
  position?: PositionStore | false;
  /**
   * Runs the bot as one of several replicas (processes, machines) that share its gateway feed, rate
   * limit, cooldowns and command sync: `redis({ url })` from `@boardbot/redis`. The adapter keeps the
   * resume point (`position` is then not used). `false` runs a single process even when
   * `BOARDBOT_REDIS_URL` is set. See docs/scaling.md.
   * @defaultValue `redis({ url: process.env.BOARDBOT_REDIS_URL })` when that variable is set (`boardbot
   * start --redis` sets it), else none: a single process
   */
  scale?: ScaleAdapter | false;
  /**
   * Where `ctx.session()` keeps sessions and conversations: a `SessionStore` shared by every instance
   * of the bot (`MemorySessionStore` in tests).
   * @defaultValue with replicas (`scale`, or `BOARDBOT_REDIS_URL`), the adapter's shared store (Redis);
   * else a `FileSessionStore` under `stateDir`
   */
  sessions?: SessionStore;
  /**
   * Where `@Cooldown` windows are counted: a `CooldownStore` shared by every process of the bot
   * (`@boardbot/postgres`), so that a person held by one is held by all and after a restart.
   * @defaultValue with replicas (`scale`, or `BOARDBOT_REDIS_URL`), the adapter's shared windows
   * (Redis); else in this process, forgotten at a restart
   */
  cooldowns?: CooldownStore | undefined;
  /**
   * The bot's state directory (the default position store writes `positions/` in it).
   * @defaultValue `process.env.BOARDBOT_STATE_DIR`, else `'.boardbot'` (relative to the working directory)
   */
  stateDir?: string;
  /**
   * Longest time between a handler finishing and the resume point being saved: a crash in between
   * costs a replay of those events, whose writes the platform recognises by their idempotency keys.
   * @defaultValue 200
   */
  positionFlushMs?: number;
  /**
   * After this long a handler is abandoned: reported as failed (`BOARDBOT_HANDLER_TIMEOUT`), its
   * slot freed, its `ctx.signal` aborted and its later writes dropped. @defaultValue 30_000
   */
  handlerTimeoutMs?: number;
  /**
   * How long `stop()` waits for queued and running handlers; those still running then are
   * abandoned like timed-out ones, and the process exits with 124. @defaultValue 10_000
   */
  shutdownTimeoutMs?: number;
  /** Most messages backfilled per board after a gateway gap. @defaultValue 500 */
  backfillLimit?: number;
  /**
   * The intake's high-water mark: once this many events are queued or running (or held behind a
   * gap's backfill), the gateway stops reading the stream; it reads on once half as many are left.
   * The platform keeps the events meanwhile (see docs/production.md). Each board has a share of it:
   * once half of it is held, a board holding a tenth of it takes no more new messages, which are set
   * aside and read back over REST once it has room, so one board's flood does not pause the others.
   * @defaultValue 1_000
   */
  maxPendingEvents?: number;
  /**
   * Told to the person when a handler fails; `false` says nothing. The default is the runtime text
   * `boardbot:errorReply`, in the person's locale when the bot has i18n; words given here are said as they are.
   * @defaultValue a short apology
   */
  errorReply?: string | false;
  /**
   * At most one refusal is posted to a person about one command or listener in this many
   * milliseconds (its options, its cooldown, a guard's words, a missing subcommand, a mistyped text
   * command); the others are logged. Refusals posted on a board are messages, which spend the app's
   * shared rate limit: a person correcting a command takes longer than this to type it again, a
   * flood does not. A slash command's refusal is always given (it answers the interaction, whose
   * rate limit is its own). 0: every refusal is posted.
   * @defaultValue 3000
   */
  refusalIntervalMs?: number;
  /** Hears about every handler failure, after the class's `@OnError` hook. @defaultValue none */
  onError?: ErrorHook | undefined;
  /**
   * What an answer to an interaction does when the platform refuses it as the sixth (it accepts 5:
   * the reply and 4 follow-ups): `'error'` throws `BOARDBOT_INTERACTION_EXHAUSTED`, `'send'` posts it
   * as a normal message on the board instead, with a warning in the log. @defaultValue `'error'`
   */
  exhaustedInteraction?: ExhaustedInteraction;
  /**
   * Stop gracefully on SIGINT/SIGTERM and exit (0, or 124 when handlers had to be abandoned; 1 after
   * a fatal gateway error; see `BOT_EXIT_CODES`). @defaultValue true
   */
  handleSignals?: boolean;
  /** Where signals come from. @defaultValue `process` */
  signals?: SignalSource;
  /** How the process exits after a signal or a fatal gateway error. @defaultValue `process.exit` */
  exit?: (code: number) => void;
  /** The REST client to use (it stays yours: `stop()` does not close it). @defaultValue a `RestClient` */
  rest?: BotRest | undefined;
  /** Builds the gateway client. @defaultValue a `GatewayClient` */
  gateway?: ((options: GatewayFactoryOptions) => BotGateway) | undefined;
  /** The clock. @defaultValue the system clock */
  clock?: Clock;
  /**
   * Where the bot's spans come from (OpenTelemetry): a span per event, a child per handler run, a
   * grandchild per REST call, whose `traceparent` and `baggage` headers the platform receives. `false`
   * makes no span and sends no trace header. See docs/observability.md.
   * @defaultValue the global provider of `@opentelemetry/api` (non-recording until an SDK is registered)
   */
  tracing?: TracerProvider | false;
  /**
   * Serves `/healthz`, `/readyz` and `/metrics` (Prometheus) on this port while the bot runs. Without
   * it, the metrics module is never loaded. See docs/observability.md.
   * @defaultValue from `BOARDBOT_HEALTH_PORT` and `BOARDBOT_HEALTH_HOST` (`boardbot start --health-port`), else none
   */
  health?: HealthOptions | undefined;
}

/** Defaults of the optional {@link BotOptions} that have a plain value. */
export const DEFAULT_BOT_OPTIONS = {
  apiUrl: 'http://127.0.0.1:8787/api/v1',
  providers: [],
  commandSync: 'sync',
  concurrency: 16,
  orderBy: 'board',
  stateDir: '.boardbot',
  positionFlushMs: 200,
  handlerTimeoutMs: 30_000,
  shutdownTimeoutMs: 10_000,
  backfillLimit: 500,
  maxPendingEvents: 1_000,
  errorReply: RUNTIME_TEXTS.errorReply,
  refusalIntervalMs: DEFAULT_REFUSAL_INTERVAL_MS,
  exhaustedInteraction: 'error',
  handleSignals: true,
} as const satisfies Partial<BotOptions>;
