import type { Logger } from '@boardbot/protocol';
import type { HealthHub } from '../../health/health-hub.js';
import type { ReplicaStatusSource } from '../../health/replica-status.js';
import type { GatewayFailure, RequestOptions } from '../../kernel/ports.js';
import type { PluginHost } from '../../plugins/plugin.js';
import type { Assembly } from '../assemble.js';
import type { StopReport } from '../exit-codes.js';
import type { ResolvedBotOptions } from '../resolve-options.js';

/** One start of the bot: when it began, and what its own steps log and send with. */
export interface StartContext {
  startedAt: number;
  /** The start's logger: its correlation id, `phase: 'start'`. */
  log: Logger;
  /** The start's request options: its correlation id. */
  requestOptions: RequestOptions;
}

/** What the bot's own parts read from the bot they make up (the bot gives it to them). */
export interface PartsHost {
  readonly options: ResolvedBotOptions;
  readonly built: Assembly;
  /** The host's health endpoint the bot joins instead of listening itself (a host of apps). */
  readonly hub?: HealthHub | undefined;
  /** The bot, as plugins' hooks receive it. */
  readonly plugins: PluginHost;
  /** The start under way (or the last one). */
  start(): StartContext;
  /** Settles once the start under way has ended, started or failed. */
  startEnded(): Promise<void>;
  /** Whether the bot is stopping gracefully (`stop()` after a start). */
  stopping(): boolean;
  /** The bot counts as running from now on (its plugins start). */
  running(): void;
  /** The replica status the bot reports to its health. */
  replicas(): ReplicaStatusSource | undefined;
  /** The readiness checks of every part, and whether the bot is running. */
  checks(): Promise<Record<string, boolean>>;
  /** A gateway gave up for good (a refused token): the bot stops. */
  gatewayFailed(error: GatewayFailure): void;
  /** Stops the bot gracefully (a signal). */
  stop(): Promise<StopReport>;
  /** Ends the process with the code (a signal, a fatal gateway error). */
  exit(code: number): void;
}
