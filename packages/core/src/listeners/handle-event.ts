import { randomUUID } from 'node:crypto';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import { readMetadataList } from '../kernel/metadata.js';
import type { EventKind, KindDefinition, KindHost } from '../policies/kind.js';
import type { HandlerTarget, KindRules, Stage } from '../policies/stages.js';
import { EventContextImpl } from './event-context.js';
import { EVENT_LISTENERS_KEY, type EventListenerMetadata } from './metadata.js';

/**
 * How an event listener's runs meet the stages: none of the policies (an event has no person to
 * refuse or to apologise to).
 */
const EVENT_RULES: KindRules<EventContextImpl> = {};

/** An event listener's own stage: it is called with the event's payload (its run's input) and its context. */
export const EVENT_STAGES: readonly Stage[] = [
  {
    name: 'event listener arguments',
    phase: 'arguments',
    applies: (_target: HandlerTarget, rules: KindRules) => rules === EVENT_RULES,
    run(pass) {
      pass.args = [pass.input, pass.ctx];
    },
  },
];

/** Event listeners (`@OnEvent`, `@OnReady`): any gateway event, by its wire name. */
export const EVENT_KIND: KindDefinition<EventListenerMetadata> = {
  name: 'event listener',
  decorators: ['@OnEvent', '@OnReady'],
  describe: (cls) => readMetadataList<EventListenerMetadata>(EVENT_LISTENERS_KEY, cls),
  create: (host) => new EventHandler(host),
};

/** Handles any gateway event for its `@OnEvent` listeners: each gets the payload and a context. */
class EventHandler implements EventKind<{ event: BotEvent; targets: readonly HandlerTarget[] }> {
  private readonly listeners = new Map<string, HandlerTarget[]>();

  constructor(private readonly host: KindHost<EventListenerMetadata>) {
    for (const { target, meta } of host.handlers) {
      const list = this.listeners.get(meta.event) ?? [];
      list.push(target);
      this.listeners.set(meta.event, list);
    }
  }

  /** The listeners of events of this name. */
  route(event: BotEvent): { event: BotEvent; targets: readonly HandlerTarget[] } | undefined {
    const targets = this.listeners.get(event.name);
    return targets && { event, targets };
  }

  async handle({ event, targets }: { event: BotEvent; targets: readonly HandlerTarget[] }, meta: EventMeta) {
    const correlationId = randomUUID();
    const log = this.host.env.log.child({ event_id: event.id, event: event.name, correlation_id: correlationId });
    const about = { name: event.name, id: event.id };
    await Promise.all(
      targets.map((target) =>
        this.host.runner.run({
          rules: EVENT_RULES,
          target,
          event: meta,
          log,
          correlationId,
          context: (deps) => new EventContextImpl(deps, about),
          input: event.data,
        }),
      ),
    );
  }
}
