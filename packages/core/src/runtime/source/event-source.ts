import type { Logger } from '@boardbot/protocol';
import type { OrderBy } from '../../dispatch/ordering.js';
import type { BotEvent, EventOrigin } from '../../kernel/event.js';
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
 * What the runtime gives a {@link BotEventSource} once the bot knows its app: the gateway, and the way
 * into the bot's own dispatch. The source decides which events this process handles and when; the
 * runtime runs them.
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
   * a replica's reserves a slot of the shared rate limit); the bot's health follows it.
   * @param readGate - while it returns a promise, the client stops reading
   * @param resumePoint - the event id the bot would resume after (position lag) @defaultValue `lastEventId`
   */
  openGateway(
    lastEventId: string | undefined,
    readGate?: () => Promise<void> | undefined,
    resumePoint?: () => string | undefined,
  ): BotGateway;
  /** Whether any of the bot's handlers takes the event (an event no handler takes needs no room). */
  handles(event: BotEvent): boolean;
  /** The ordering key of an event under the bot's `orderBy` (undefined: no ordering constraint). */
  orderingKey(event: BotEvent): string | undefined;
  /**
   * Hands an event to the bot: its trace starts now, it is queued under its ordering key and
   * dispatched; resolves with how its handlers ended (work a burst held included), never rejects. An
   * event no handler takes resolves at once; one queued when the bot stops is dropped.
   * @param place - set for a message read back after a gap (never replayed)
   * @param origin - where it comes from: a message read back over REST (after a gap, or set aside) is
   * a `'backfill'`, whose id the resume point and the metrics do not count
   * @defaultValue `'backfill'` with a `place`, else `'live'`
   */
  deliver(event: BotEvent, place?: BackfillPlace, origin?: EventOrigin): Promise<DispatchOutcome>;
  /**
   * Queues `task` on the bot's queue: tasks with one key run one after the other, up to `concurrency`
   * at once; one not started when the bot stops is dropped. Each counts toward {@link SourceHost.bound}.
   */
  enqueue(key: string | undefined, task: () => Promise<unknown>): void;
  /** The bot's intake bound: while its gate is closed, take no more events (read or claim none). */
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
   * Opens the bot's intake onto `sink`, one per gateway connection: the events given to its `receive`
   * are deduplicated, and a gap's missed messages read back and passed on first. In one process it
   * counts toward {@link SourceHost.bound}; a replica's reader is bounded by the shared backlog.
   */
  intake(sink: IntakeSink): EventIntake;
  /** Tells the runtime that the gateway gave up for good (a refused token): the bot stops. */
  gatewayFailed(error: GatewayFailure): void;
}

/**
 * Where a bot's events come from (the event source port): the gateway (the default), a replica's
 * share of a shared log (`@boardbot/redis`), or one of your own (`createBot({ source })`). Started
 * once the commands are synced, paused first at a stop, closed once the handlers finished.
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
  live?(): boolean | Promise<boolean>;
}
