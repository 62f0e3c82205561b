import type { Logger } from '@boardbot/protocol';
import type { SharedRateLimit } from '@boardbot/rest';
import type { CommandSyncPlan } from '../../commands/sync/plan.js';
import type { OrderBy } from '../../dispatch/ordering.js';
import type { ReplicaStatus } from '../../health/replica-status.js';
import type { Clock } from '../../kernel/clock.js';
import type { BotEvent } from '../../kernel/event.js';
import type { DispatchOutcome } from '../../kernel/outcome.js';
import type { BotGateway, GatewayFailure } from '../../kernel/ports.js';
import type { CooldownStore } from '../../policies/cooldown-store.js';
import type { SessionStore } from '../../sessions/session-store.js';
import type { EventIntake, IntakeSink } from '../intake/intake-sink.js';

/**
 * The bot's intake bound (`maxPendingEvents`) as a {@link ScaleAdapter} sees it: what this process
 * holds, and whether it may take more. It pauses at `high` and resumes once half as many are left.
 */
export interface IntakeBound {
  /** Events this process holds: queued with {@link ScaleHost.enqueue} and not finished. */
  readonly count: number;
  /** The high-water mark (`maxPendingEvents`). */
  readonly high: number;
  /** A promise while the bound is reached: take no more events until it resolves; undefined when free. */
  gate(): Promise<void> | undefined;
}

/**
 * What the runtime gives a {@link ScaleAdapter} once the bot knows its app: the gateway, and the way
 * into the bot's own dispatch (its handlers, its ordering keys, its queue and concurrency). The
 * adapter decides which events this process handles and when; the runtime runs them.
 */
export interface ScaleHost {
  /** The app the bot runs as. */
  readonly appId: string;
  /** The app API base URL (with the app id, it names the bot's shared state). */
  readonly apiUrl: string;
  /** The bot's root logger. */
  readonly log: Logger;
  /** The bot's `orderBy`. */
  readonly orderBy: OrderBy;
  /** When this process started (epoch ms): events created before it may have been handled already. */
  readonly startedAt: number;
  /**
   * Builds a gateway client resuming after `lastEventId` (the bot's gateway factory, token and URL;
   * its connection reserves a slot of the shared rate limit).
   * @param readGate - the adapter's own bound (a shared backlog): while it returns a promise, the
   * client stops reading the stream
   */
  openGateway(lastEventId: string | undefined, readGate?: () => Promise<void> | undefined): BotGateway;
  /** The ordering key of an event under the bot's `orderBy` (undefined: no ordering constraint). */
  orderingKey(event: BotEvent): string | undefined;
  /**
   * Queues `task` on the bot's dispatch queue: tasks with the same key run one after the other, in
   * the order they were queued, up to `concurrency` at once. A task that has not started when the bot
   * stops is dropped. Each task counts toward {@link ScaleHost.bound} until it finishes.
   */
  enqueue(key: string | undefined, task: () => Promise<unknown>): void;
  /**
   * The bot's intake bound: while its gate is closed, take no more events (read or claim no entry of
   * the shared log), so that this process holds at most about `maxPendingEvents` of them.
   */
  readonly bound: IntakeBound;
  /**
   * Runs an event's handlers now (call it from a queued task); never rejects.
   * @param replayed - whether another process (or an earlier run) may have handled it already; the
   * bot adds an event created before this process started
   * @param carrier - the trace headers {@link ScaleHost.relay} gave for it on the reader, if any: its
   * handlers' spans continue that trace
   * @param owned - whether this replica still holds the event's partition, by its lease's deadline and
   * the clock (checked before each write of a streamed answer, which stops writing once it is false)
   */
  dispatch(
    event: BotEvent,
    replayed: boolean,
    carrier?: Readonly<Record<string, string>>,
    owned?: () => boolean,
  ): Promise<DispatchOutcome>;
  /**
   * Traces the receipt of an event this replica passes on to the others (a short span) and returns
   * the W3C headers that continue its trace; empty when the bot does not trace. Store them with the
   * event and give them back to {@link ScaleHost.dispatch} where it is handled.
   */
  relay(event: BotEvent): Record<string, string>;
  /**
   * Opens the bot's intake onto `sink`: the gateway events given to its `receive` are deduplicated,
   * and a gap's missed messages read back and passed on first, before `sink` takes them. Open one per
   * gateway connection, and close it with the connection.
   */
  intake(sink: IntakeSink): EventIntake;
  /** Tells the runtime that the gateway gave up for good (a refused token): the bot stops. */
  gatewayFailed(error: GatewayFailure): void;
}

/**
 * Runs one bot as several processes (replicas) that share its gateway feed, its rate limit, its
 * cooldowns and its command sync, so that together they behave as one bot. `@boardbot/redis`
 * implements it; give it as `createBot({ scale })`. Without it (the default) the process reads the
 * gateway and handles every event itself.
 */
export interface ScaleAdapter {
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
  start(host: ScaleHost): Promise<void>;
  /** Stops taking new work (no new reads; the gateway closes if this replica read it). */
  pause(): Promise<void>;
  /** Leaves: records what finished, hands what did not to the other replicas, and disconnects. */
  close(): Promise<void>;
}
