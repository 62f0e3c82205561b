import { GatewayClient } from '@boardbot/gateway';
import type { Logger } from '@boardbot/protocol';
import { queueTask } from '../../dispatch/keyed-queue.js';
import { orderingKey } from '../../dispatch/ordering.js';
import type { BotEvent } from '../../kernel/event.js';
import { type DispatchOutcome, releasedOutcome } from '../../kernel/outcome.js';
import type { BotGateway, GatewayFailure } from '../../kernel/ports.js';
import type { Assembly } from '../assemble.js';
import { intakeBound } from '../intake/backpressure.js';
import { boardShareOf } from '../intake/board-shares.js';
import { Intake, originOf } from '../intake/intake.js';
import { dispatchTraced } from '../intake/traced-dispatch.js';
import type { ResolvedBotOptions } from '../resolve-options.js';
import { rateLimitedFetch } from '../scale/rate-limited-fetch.js';
import type { SourceHost } from './event-source.js';

/** What a bot's {@link SourceHost} is made from, once the bot read its app. */
export interface SourceHostDeps {
  parts: Assembly;
  options: ResolvedBotOptions;
  appId: string;
  startLog: Logger;
  /** When this process started (epoch ms). */
  startedAt: number;
  /** The bot's health follows each gateway the source opens, with where the resume point stands. */
  watch(gateway: BotGateway, resumePoint: () => string | undefined): void;
  gatewayFailed(error: GatewayFailure): void;
}

/**
 * The host a bot gives its event source: the one way into its intake, queue and dispatcher, whichever
 * source it is, and the one place its gateway clients are built (`createBot({ gateway })`, else a
 * `GatewayClient`; a replica's reserves a slot of the shared rate limit, which `GET /gateway` counts
 * against). With replicas the bound counts what the adapter queues and the reader's intake is bounded
 * by the shared backlog; in one process the intake counts what it holds.
 * @param d - the bot's parts and options, its app and start
 */
export function sourceHost(d: SourceHostDeps): SourceHost {
  const { parts, options, startedAt } = d;
  const { dispatcher, queue, telemetry, clock, log } = parts;
  const rateLimit = parts.scale?.rateLimit;
  const replica = rateLimit !== undefined;
  const bound = intakeBound(parts, options.maxPendingEvents, replica ? 'this replica' : 'the gateway');
  return {
    ...{ appId: d.appId, apiUrl: options.apiUrl, log, startLog: d.startLog, orderBy: options.orderBy, startedAt },
    openGateway: (lastEventId, readGate, resumePoint = () => lastEventId) => {
      const fetch = rateLimit && rateLimitedFetch(rateLimit, clock);
      const o = { token: options.token, baseUrl: options.apiUrl, logger: log, lastEventId };
      const made = { ...o, ...(fetch && { fetch }), ...(readGate && { readGate }) };
      const gateway = options.gateway ? options.gateway(made) : new GatewayClient(made);
      d.watch(gateway, resumePoint);
      return gateway;
    },
    handles: (event) => dispatcher.route(event) !== undefined,
    orderingKey: (event) => orderingKey(event, options.orderBy),
    deliver: (event, place, origin = place === undefined ? 'live' : 'backfill') => {
      const traced = telemetry.receive(event, origin);
      // Whether any handler runs for it is decided once, here: what the kinds would run travels with it.
      const routed = dispatcher.route(event);
      // Nothing handles it (the bot's own answers, most often): traced and done now, without waiting
      // for its key's turn in the queue.
      if (!routed) return dispatchTraced(dispatcher, undefined, {}, traced);
      const replayed = place === undefined && createdBefore(event, startedAt);
      return new Promise<DispatchOutcome>((resolve) => {
        queue.push(orderingKey(event, options.orderBy), async () => {
          const outcome = await dispatchTraced(dispatcher, routed, { replayed, origin }, traced);
          // A burst holding the message frees its board's slot now, and is done once it ran.
          if (outcome.held && outcome.held.length > 0) void releasedOutcome(outcome).then(resolve);
          else resolve(outcome);
        });
      });
    },
    enqueue: (key, task) => {
      bound.add();
      queue.push(key, async () => {
        try {
          return await task();
        } finally {
          bound.done();
        }
      });
    },
    bound,
    dispatch: (event, replayed, carrier, owned) => {
      const origin = originOf(event);
      const traced = telemetry.receive(event, origin, carrier);
      const o = { replayed: replayed || createdBefore(event, startedAt), origin, owned };
      return dispatchTraced(dispatcher, dispatcher.route(event), o, traced);
    },
    relay: (event) => telemetry.relay(event),
    // One process: the intake counts toward the bound, each board has its share of it, and a board's
    // read-back runs as a worker of the queue (`idle()` and the stop wait for it).
    intake: (sink) =>
      new Intake(sink, {
        ...parts,
        backfillLimit: options.backfillLimit,
        ...(!replica && {
          pressure: bound,
          boardShare: boardShareOf(options.maxPendingEvents),
          schedule: (task: () => Promise<void>) => queueTask(queue, task),
        }),
      }),
    gatewayFailed: (error) => d.gatewayFailed(error),
  };
}

/** Whether the event's interaction or message was created before `time` (epoch ms). */
function createdBefore(event: BotEvent, time: number): boolean {
  if (event.unknown) return false;
  const created =
    event.name === 'interaction.create'
      ? event.data.interaction.created_at
      : event.name === 'message.create'
        ? event.data.message.created_at
        : undefined;
  return created !== undefined && Date.parse(created) < time;
}
