import type { TracerProvider } from '@opentelemetry/api';
import type { HealthOptions } from '../health/health-options.js';
import type { LoggerInput } from '../kernel/logger.js';
import type { BotDefinition } from '../runtime/define-bot.js';
import type { BotOptions } from '../runtime/options.js';
import type { SignalSource } from '../runtime/signals.js';
import type { HostScale } from './host-scale.js';

/**
 * Where an app's token comes from: the name of an environment variable (`{ env: 'TEAM_A_TOKEN' }`),
 * or a resolver, called at each start and each `host.retoken(id)` (a database lookup, a secret
 * manager). Never the token itself: a token does not belong in a configuration.
 */
export type AppToken = { readonly env: string } | ((app: string) => string | Promise<string>);

/** The options a host sets for each app itself: an app's own options cannot give them. */
export type HostOwnedOption = 'token' | 'logger' | 'stateDir' | 'health' | 'handleSignals' | 'signals' | 'exit';

/** One app of a host: its id, its bot, its token, and options of its own. */
export interface HostedAppDefinition {
  /**
   * The app's name in the host: its logs' `app` field, its metrics' `app` label, its folder under
   * the host's `stateDir`, its `/readyz?app=` name. Letters, digits, `-` and `_`, at most 64.
   */
  id: string;
  /**
   * Its handlers, as a definition (`defineBot`, classes shared with other apps allowed), or what
   * loads it (`() => import('./team-a.js').then((m) => m.default)`): one that fails to load fails
   * this app alone.
   */
  bot: BotDefinition | (() => BotDefinition | Promise<BotDefinition>);
  /** Where its token comes from. */
  token: AppToken;
  /**
   * Options of its bot (`commandSync`, `concurrency`, `maxPendingEvents`, `apiUrl`, `sessions`...),
   * over the host's defaults. @defaultValue `{}`
   */
  options?: Omit<Partial<BotOptions>, HostOwnedOption>;
}

/** Options of `createHost`. */
export interface HostOptions {
  /**
   * The apps' state directory: each app keeps its resume point and sessions in `<stateDir>/apps/<id>`.
   * @defaultValue `process.env.BOARDBOT_STATE_DIR`, else `'.boardbot'`
   */
  stateDir?: string;
  /**
   * The one logger of the host (pino options, a logger, or `false`); each app logs through a child
   * with its `app` field. @defaultValue as `createBot`'s
   */
  logger?: LoggerInput;
  /**
   * The one endpoint of `/healthz`, `/readyz` (of every app, or one: `/readyz?app=<id>`) and
   * `/metrics` (the process's metrics once, each app's with its `app` label).
   * @defaultValue from `BOARDBOT_HEALTH_PORT` and `BOARDBOT_HEALTH_HOST`, else none
   */
  health?: HealthOptions | undefined;
  /** The telemetry provider every app's spans come from. @defaultValue as `createBot`'s */
  tracing?: TracerProvider | false;
  /**
   * Options every app's bot gets unless its own say otherwise: `apiUrl`, `concurrency` (the
   * handlers it runs at once) and `maxPendingEvents` (what it holds before its gateway waits) are
   * each app's own bounds, so a busy app cannot take the others' turn. @defaultValue `{}`
   */
  defaults?: Omit<Partial<BotOptions>, HostOwnedOption | 'handlers'>;
  /**
   * Runs the host as one of several replicas (`redisHost()` of `@boardbot/redis`): the apps are
   * spread over the replicas, each running on one at a time and moving when that one dies; the apps
   * not run here are `elsewhere`. Without it every app runs here. @defaultValue none
   */
  scale?: HostScale | undefined;
  /** Stop every app gracefully on SIGINT/SIGTERM and exit. @defaultValue true */
  handleSignals?: boolean;
  /** Where signals come from. @defaultValue `process` */
  signals?: SignalSource;
  /** How the process exits after a signal. @defaultValue `process.exit` */
  exit?: (code: number) => void;
}

/** Defaults of the optional {@link HostOptions} that have a plain value. */
export const DEFAULT_HOST_OPTIONS = {
  stateDir: '.boardbot',
  handleSignals: true,
} as const satisfies Partial<HostOptions>;
