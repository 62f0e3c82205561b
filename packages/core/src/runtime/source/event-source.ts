import type { Logger } from '@boardbot/protocol';
import type { OrderBy } from '../../dispatch/ordering.js';
import type { BotEvent } from '../../kernel/event.js';
import type { DispatchOutcome } from '../../kernel/outcome.js';
import type { BotGateway, GatewayFailure } from '../../kernel/ports.js';
import type { BackfillPlace, EventIntake, IntakeSink } from '../intake/intake-sink.js';

/**
 * The bot's intake bound (`maxPendingEvents`) as an {@link BotEventSource} sees it: what this process
 * holds, and whether it may take more. It pauses at `high` and resumes once half as many are left.
 */
export interface IntakeBound {
  /** Events this process holds: queued with {@link SourceHost.enqueue} and not finished. */
  readonly count: number;
  /** The high-water mark (`maxPendingEvents`). */
  readonly high: number;
  /** A promise while the bound is reached: take no more events until it resolves; undefined when free. */
  gate(): Promise<void> | undefined;
}

/**
 * What the runtime gives an {@link BotEventSource} once the bot knows its app: the gateway, and the way
 * into the bot's own dispatch (its handlers, its ordering keys, its queue and concurrency). The
 * source decides which events this process handles and when; the runtime runs them.
 */
export interface SourceHost {
  /** The app the bot runs as. */
  readonly appId: string;
  /** The app API base URL (with the app id, it names the bot's shared state). */
  readonly apiUrl: string;
  /** The bot's root logger. */
  readonly log: Logger;
  /** The logger of the bot's start (its correlation id, `phase: 'start'`): for what the source says while it starts. */
  readonly startLog: Logger;
  /** The bot's `orderBy`. */
  readonly orderBy: OrderBy;
  /** When this process started (epoch ms): events created before it may have been handled already. */
  readonly startedAt: number;
  /**
   * Builds a gateway client resuming after `lastEventId` (the bot's gateway factory, token and URL;
   * a replica's connection reserves a slot of the shared rate limit). The bot's health follows it.
   * @param readGate - the source's bound: while it returns a promise, the client stops reading
   * @param resumePoint - reads the event id the bot would resume after (for the position-lag
   * metrics) @defaultValue `lastEventId`
   */
  openGateway(
    lastEventId: string | undefined,
    readGate?: () => Promise<void> | undefined,
    resumePoint?: () => string | undefined,
  ): BotGateway;
  /** The ordering key of an event under the bot's `orderBy` (undefined: no ordering constraint). */
  orderingKey(event: BotEvent): string | undefined;
  /**
   * Hands an event to the bot's handlers: its trace starts now, it is queued under its ordering key
   * (its board's events one after the other) and dispatched. Resolves once its handlers finished
   * (work a burst held included) with how they ended; never rejects. An event no handler takes
   * resolves at once. Queued events that have not started when the bot stops are dropped.
   * @param place - set for a message read back after a gap (never counted as replayed)
   */
  deliver(event: BotEvent, place?: BackfillPlace): Promise<DispatchOutcome>;
  /**
   * Queues `task` on the bot's dispatch queue: tasks with the same key run one after the other, in
   * the order they were queued, up to `concurrency` at once. A task that has not started when the bot
   * stops is dropped. With replicas, each task counts toward {@link SourceHost.bound} until it finishes.
   */
  enqueue(key: string | undefined, task: () => Promise<unknown>): void;
  /**
   * The bot's intake bound: while its gate is closed, take no more events (read or claim no entry of
   * a shared log), so that this process holds at most about `maxPendingEvents` of them.
   */
  readonly bound: IntakeBound;
  /**
   * Runs an event's handlers now (call it from a queued task); never rejects.
   * @param replayed - whether another process (or an earlier run) may have handled it already; the
   * bot adds an event created before this process started
   * @param carrier - the trace headers {@link SourceHost.relay} gave for it on the reader, if any: its
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
   * event and give them back to {@link SourceHost.dispatch} where it is handled.
   */
  relay(event: BotEvent): Record<string, string>;
  /**
   * Opens the bot's intake onto `sink`: the gateway events given to its `receive` are deduplicated,
   * and a gap's missed messages read back and passed on first, before `sink` takes them. Open one per
   * gateway connection, and close it with the connection. In one process it counts what it holds
   * toward {@link SourceHost.bound}; with replicas the reader's shared backlog bounds it instead.
   */
  intake(sink: IntakeSink): EventIntake;
  /** Tells the runtime that the gateway gave up for good (a refused token): the bot stops. */
  gatewayFailed(error: GatewayFailure): void;
}

/**
 * Where a bot's events come from: the platform's gateway in one process (the default, with its
 * resume point), a replica's share of a shared log (`@boardbot/redis`), or a source of your own (a
 * test's events in memory). The bot starts it once it knows its app and its commands are synced,
 * pauses it first when it stops, and closes it once its handlers finished. Give one as
 * `createBot({ source })`; see docs/architecture.md, "Ports".
 */
export interface BotEventSource {
  /** A short description for logs (`redis redis://host:6379`), with no secret in it. */
  readonly description: string;
  /**
   * Starts feeding the bot through `host`, and resolves once it is live.
   * @returns facts the `bot started` log line gives (`{ boards }`), if any
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a source with nothing to say resolves with nothing (ScaleAdapter's start)
  start(host: SourceHost): Promise<void | Readonly<Record<string, unknown>>>;
  /** Takes no new event (the first step of a stop); what it gave the bot goes on running. */
  pause(): Promise<void>;
  /**
   * The stop gave up on the handlers still running (`shutdownTimeoutMs`): nothing that ends from
   * now on counts as done, so that the next process handles it again.
   */
  abandon?(): void;
  /** Releases what it holds once the bot's handlers finished (a last save of where it stands). */
  close?(): Promise<void>;
  /**
   * Whether it feeds the bot now, for `/readyz` (`gateway`). @defaultValue the gateway it opened is
   * connected (or reconnecting for less than the grace period)
   */
  ready?(): boolean | Promise<boolean>;
}
