import type { Logger } from '@boardbot/protocol';
import type { SharedRateLimit } from '@boardbot/rest';
import type { CommandSyncPlan } from '../../commands/sync/plan.js';
import type { ReplicaStatus } from '../../health/replica-status.js';
import type { Clock } from '../../kernel/clock.js';
import type { CooldownStore } from '../../policies/cooldown-store.js';
import type { SessionStore } from '../../sessions/session-store.js';
import type { BotEventSource, SourceHost } from '../source/event-source.js';

/** What the runtime gives a replica adapter: the {@link SourceHost} every event source gets. @deprecated use `SourceHost` */
export type ScaleHost = SourceHost;

/**
 * Runs one bot as several processes (replicas) that share its gateway feed, its rate limit, its
 * cooldowns and its command sync, so that together they behave as one bot: the bot's event source,
 * and the shared state behind it. `@boardbot/redis` implements it; give it as `createBot({ scale })`.
 * Without it (the default) the process reads the gateway and handles every event itself.
 */
export interface ScaleAdapter extends BotEventSource {
  /** A short description for logs (`redis redis://host:6379`), with no secret in it. */
  readonly description: string;
  /** The app token's rate-limit bucket, shared by every replica (REST calls and the gateway connection). */
  readonly rateLimit: SharedRateLimit;
  /** Cooldown windows shared by every replica. */
  readonly cooldowns: CooldownStore;
  /**
   * The session store every replica shares (sessions, conversations, schedule claims), used when the
   * bot was given no `sessions` store; without one the bot keeps its file default.
   */
  readonly sessions?: SessionStore;
  /**
   * This replica's part in the shared feed (reader or consumer, consuming or not, pending and
   * dead-lettered events), read at each `/readyz` and `/metrics`: the bot reports it by itself, so
   * a replica that does not read the gateway is ready while it consumes. Never rejects.
   */
  status?(): Promise<ReplicaStatus>;
  /**
   * Connects the adapter; called first by `start()`, before the bot's first request: the shared rate
   * limit works from then on.
   * @param target - the API URL, a hash naming the app token (its rate-limit bucket), the logger, and
   * the bot's clock (every wait and time of the adapter is read from it)
   */
  connect(target: { apiUrl: string; credential: string; log: Logger; clock: Clock }): Promise<void>;
  /**
   * Names the bot's shared state once the app is known (`GET /app`): cooldowns and the command sync
   * work from then on.
   * @param appId - the app the bot runs as
   */
  joinApp(appId: string): Promise<void>;
  /**
   * Syncs the commands once across replicas: `sync` runs (under a lock) only in a replica whose
   * command set is the one that should be registered; the others leave the registered set as it is.
   * @param setHash - the hash of this replica's normalised command set
   * @param sync - reconciles the registered commands with this replica's (a `PUT` only when they differ)
   * @returns the plan when `sync` ran here, else undefined
   */
  syncCommands(setHash: string, sync: () => Promise<CommandSyncPlan | undefined>): Promise<CommandSyncPlan | undefined>;
  /** Joins the replicas: from now on this process reads and handles its share of the events. */
  start(host: SourceHost): Promise<void>;
  /** Stops taking new work (no new reads; the gateway closes if this replica read it). */
  pause(): Promise<void>;
  /** Leaves: records what finished, hands what did not to the other replicas, and disconnects. */
  close(): Promise<void>;
}
