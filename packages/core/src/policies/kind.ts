import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { Class } from '../kernel/metadata.js';
import type { MetricsSink } from '../telemetry/metrics-sink.js';
import type { HandlerTarget, Runs } from './stages.js';

/** What a kind reads from each handler method of its own: at least the method's name. */
export interface KindMethod {
  /** The method of the handler class. */
  method: string;
}

/** One handler method of a kind: bound to its instance, with its policies, and what the kind read. */
export interface KindHandler<M extends KindMethod = KindMethod> {
  readonly target: HandlerTarget;
  readonly meta: M;
}

/** What a kind is built with: its handlers, the runner, the bot's parts. */
export interface KindHost<M extends KindMethod = KindMethod> {
  /** The handler methods of this kind, of every handler class of the bot (and of its plugins). */
  readonly handlers: readonly KindHandler<M>[];
  /**
   * The handler methods another kind read (text commands run the commands' own).
   * @param kind - the other kind
   */
  handlersOf<N extends KindMethod>(kind: KindDefinition<N>): readonly KindHandler<N>[];
  /** Runs each handler through the stages. */
  readonly runner: Runs;
  /** The bot's REST client, app, logger, clock and services. */
  readonly env: CoreEnv;
  /**
   * Runs a task as a worker of the bot's queue, outside any ordering slot (a burst's run, after the
   * messages it holds gave theirs back).
   */
  schedule(task: () => Promise<void>): Promise<void>;
  /** The bot's metrics, once its health module is loaded (`createBot({ health })`). */
  readonly metrics: () => MetricsSink | undefined;
}

/**
 * What a kind does with the events: says once, when an event arrives, what it would run for it
 * (the answer travels with the event: nothing, and the event is done at once), then runs it.
 *
 * @typeParam R - what it routes an event to (its handlers, the command named...)
 */
export interface EventKind<R = unknown> {
  /** What it would run for the event; undefined: nothing. */
  route(event: BotEvent): R | undefined;
  /**
   * Runs what it routed the event to, each handler through the runner; never rejects.
   * @param route - what {@link EventKind.route} gave
   * @param event - the event's meta: its id, origin, key basis, trace and outcome
   */
  handle(route: R, event: EventMeta): Promise<void>;
  /** Runs nothing more of what it holds (at stop). */
  close?(): void;
}

/**
 * A kind of handler: the decorators it reads from handler classes, and what runs its handlers for
 * the events. Core's kinds (commands, text commands, message and event listeners, schedules) are
 * registered as a plugin's are: `definePlugin({ kinds: [kind] })`.
 *
 * @typeParam M - what it reads from one handler method
 */
export interface KindDefinition<M extends KindMethod = KindMethod> {
  /** Its name, for errors and logs. */
  readonly name: string;
  /** The decorators that declare its handlers, for the error that names a class no kind claims. */
  readonly decorators: readonly string[];
  /**
   * Reads its handler methods from a handler class (its decorators' metadata); none: the class has
   * none of this kind. Throws when a declaration cannot work.
   * @param cls - a handler class
   */
  describe(cls: Class): readonly M[];
  /**
   * Makes what runs its handlers, once the bot's handlers are built.
   * @param host - its handlers, the runner and the bot's parts
   */
  create(host: KindHost<M>): EventKind;
}
