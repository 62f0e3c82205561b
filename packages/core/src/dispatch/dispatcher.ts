import type { Context } from '@opentelemetry/api';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta, EventOrigin } from '../kernel/event.js';
import type { DispatchOutcome } from '../kernel/outcome.js';
import type { Plugin } from '../plugins/plugin.js';
import type { FailurePolicy } from '../policies/failure.js';
import type { EventKind } from '../policies/kind.js';
import { Runner } from '../policies/runner.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { keyBasis } from './key-basis.js';
import { type KeyedQueue, queueTask } from './keyed-queue.js';
import { handlersOf, type Routes } from './routes.js';

/** What the dispatcher needs from the bot. */
export interface DispatcherDeps extends CoreEnv, FailurePolicy {
  handlerTimeoutMs: number;
  /** The window of the refusals a person is told on the board. */
  refusalIntervalMs: number;
  telemetry: Telemetry;
  /** The handler methods of every kind. */
  routes: Routes;
  /** Core's features, then the plugins', in order: their stages, endings and kinds. */
  features: readonly Pick<Plugin, 'stages' | 'endings' | 'kinds'>[];
  /** The bot's queue: a burst's run takes one of its workers, outside any ordering slot. */
  queue: KeyedQueue;
}

/** How an event is dispatched: whether it may have been handled already, where it comes from, its trace. */
export interface DispatchOptions {
  /** Whether an earlier process may have handled it already (after a restart). @defaultValue false */
  replayed?: boolean;
  /** @defaultValue `'live'` */
  origin?: EventOrigin;
  /** The event's trace context (its span, from `Telemetry.receive`), if traced. */
  trace?: Context | undefined;
  /** Whether this process still owns the event (see `DispatchOutcome.owned`). */
  owned?: (() => boolean) | undefined;
}

/** What the kinds would run for an event, decided once, when it arrived: it travels with the event. */
export interface Routed {
  readonly event: BotEvent;
  readonly routes: readonly { kind: EventKind; route: unknown }[];
}

/**
 * Hands each event to the kinds of handler: each says once what it would run for it (nothing: the
 * event is done at once), and runs it, each handler through the one runner.
 */
export class Dispatcher {
  /** The runner every run goes through: what is running, what released its slot, the stop's interruption and abandonment. */
  readonly runner: Runner;
  private readonly kinds: readonly EventKind[];

  /** @param deps - the routes, the features and the bot's environment and policy */
  constructor(deps: DispatcherDeps) {
    const { features, routes, queue, telemetry } = deps;
    this.runner = new Runner({
      ...deps,
      env: deps,
      stages: features.flatMap((f) => f.stages ?? []),
      endings: features.flatMap((f) => f.endings ?? []),
    });
    const schedule = (task: () => Promise<void>) => queueTask(queue, task);
    this.kinds = features
      .flatMap((f) => f.kinds ?? [])
      .map((kind) =>
        kind.create({
          handlers: handlersOf(routes, kind),
          handlersOf: (other) => handlersOf(routes, other),
          runner: this.runner,
          env: deps,
          schedule,
          metrics: () => telemetry.metrics,
        }),
      );
  }

  /** Runs nothing more of what the kinds hold (at stop: held bursts stay before the resume point). */
  close(): void {
    for (const kind of this.kinds) kind.close?.();
  }

  /**
   * What the kinds would run for the event: an invocation always gets a run (an unknown command is
   * answered), a message one only with a listener that may see it...; undefined: nothing.
   * @param event - the event
   */
  route(event: BotEvent): Routed | undefined {
    let routes: { kind: EventKind; route: unknown }[] | undefined;
    for (const kind of this.kinds) {
      const route = kind.route(event);
      if (route === undefined) continue;
      routes ??= [];
      routes.push({ kind, route });
    }
    return routes && { event, routes };
  }

  /**
   * Runs what the kinds routed an event to; resolves when all its handlers ended, timed out or handed
   * their slot back; never rejects.
   * @param routed - what {@link Dispatcher.route} gave
   * @param options - whether it is replayed, its origin, trace and ownership
   * @returns how its handlers ended (replicas deliver a failed event again)
   */
  async handle(routed: Routed, options: DispatchOptions = {}): Promise<DispatchOutcome> {
    const { event, routes } = routed;
    // The outcome travels with the event to each of its runs, which the runner marks when one ends
    // badly. A rejection counts as a failure.
    const outcome: DispatchOutcome = { failed: false, abandoned: false };
    if (options.owned) outcome.owned = options.owned;
    const meta: EventMeta = {
      id: event.id,
      origin: options.origin ?? 'live',
      keyBasis: keyBasis(event),
      replayed: options.replayed ?? false,
      trace: options.trace,
      outcome,
    };
    try {
      // One kind (the usual case) directly: a `Promise.all` costs every event promises more.
      if (routes.length === 1) {
        const [only] = routes as [{ kind: EventKind; route: unknown }];
        await only.kind.handle(only.route, meta);
      } else await Promise.all(routes.map(({ kind, route }) => kind.handle(route, meta)));
    } catch {
      outcome.failed = true;
    }
    return outcome;
  }
}
