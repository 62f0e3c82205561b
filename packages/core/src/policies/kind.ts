import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { Class } from '../kernel/metadata.js';
import type { MetricsSink } from '../telemetry/metrics-sink.js';
import type { HandlerTarget, Runs } from './stages.js';

/** What a kind reads from each handler method of its own: at least the method's name. */
export interface KindMethod {
  method: string;
}

/** One handler method of a kind: bound to its instance, with its policies, and what the kind read. */
export interface KindHandler<M extends KindMethod = KindMethod> {
  readonly target: HandlerTarget;
  readonly meta: M;
}

/** What a kind is built with: its handlers, the runner, the bot's parts. */
export interface KindHost<M extends KindMethod = KindMethod> {
  /** Its handler methods, of every handler class of the bot and of its plugins. */
  readonly handlers: readonly KindHandler<M>[];
  /** The handler methods another kind read (text commands run the commands' own). */
  handlersOf<N extends KindMethod>(kind: KindDefinition<N>): readonly KindHandler<N>[];
  readonly runner: Runs;
  /** The bot's REST client, app, logger, clock and services. */
  readonly env: CoreEnv;
  /** Runs a task as a worker of the bot's queue, outside any ordering slot (a burst's run). */
  schedule(task: () => Promise<void>): Promise<void>;
  /** The bot's metrics, once its health module is loaded. */
  readonly metrics: () => MetricsSink | undefined;
}

/**
 * What a kind does with the events: says once, when an event arrives, what it would run for it
 * (nothing: the event is done at once), then runs that when the event's turn comes.
 * @typeParam R - what it routes an event to
 */
export interface EventKind<R = unknown> {
  /** What it would run for the event; undefined: nothing. */
  route(event: BotEvent): R | undefined;
  /** Runs what it routed the event to, each handler through the runner; never rejects. */
  handle(route: R, event: EventMeta): Promise<void>;
  /** Runs nothing more of what it holds (at stop). */
  close?(): void;
}

/**
 * A kind of handler: the decorators it reads from handler classes, and what runs its handlers.
 * Core's kinds are given as a plugin's are: `definePlugin({ kinds })`.
 * @typeParam M - what it reads from one handler method
 */
export interface KindDefinition<M extends KindMethod = KindMethod> {
  readonly name: string;
  /** Its decorators, for the error that names a class no kind claims. */
  readonly decorators: readonly string[];
  /** Reads its handler methods from a handler class; throws when a declaration cannot work. */
  describe(cls: Class): readonly M[];
  /** Makes what runs its handlers, once the bot's handlers are built. */
  create(host: KindHost<M>): EventKind;
}
