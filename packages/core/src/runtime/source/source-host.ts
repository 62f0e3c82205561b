import { GatewayClient } from '@boardbot/gateway';
import type { Logger } from '@boardbot/protocol';
import type { SharedRateLimit } from '@boardbot/rest';
import { orderingKey } from '../../dispatch/ordering.js';
import type { BotEvent } from '../../kernel/event.js';
import type { BotGateway, GatewayFactoryOptions, GatewayFailure } from '../../kernel/ports.js';
import type { Assembly } from '../assemble.js';
import { intakeBound } from '../intake/backpressure.js';
import { Intake } from '../intake/intake.js';
import { dispatchTraced } from '../intake/traced-dispatch.js';
import type { ResolvedBotOptions } from '../resolve-options.js';
import { rateLimitedFetch } from '../scale/rate-limited-fetch.js';
import { createdBefore, deliverEvent } from './deliver.js';
import type { SourceHost } from './event-source.js';

/** What a bot's {@link SourceHost} is made from, once the bot read its app. */
export interface SourceHostDeps {
  parts: Assembly;
  options: ResolvedBotOptions;
  appId: string;
  /** The start's logger. */
  startLog: Logger;
  /** When this process started (epoch ms). */
  startedAt: number;
  /** The replicas' shared rate limit: set when the source is a replica adapter. */
  rateLimit?: SharedRateLimit | undefined;
  /** The bot's health follows each gateway the source opens, with where the resume point stands. */
  watch(gateway: BotGateway, resumePoint: () => string | undefined): void;
  /** A gateway gave up for good: the bot stops. */
  gatewayFailed(error: GatewayFailure): void;
}

/**
 * The one place a bot's gateway client is built: its factory (`createBot({ gateway })`, else a
 * `GatewayClient`), token and URL, resuming after `lastEventId`. A replica's connection reserves a
 * slot of the shared rate limit first, since the platform counts `GET /gateway` against the window.
 */
function openGateway(
  d: SourceHostDeps,
  lastEventId: string | undefined,
  readGate: (() => Promise<void> | undefined) | undefined,
): BotGateway {
  const { options, parts } = d;
  const gateway: GatewayFactoryOptions = {
    token: options.token,
    baseUrl: options.apiUrl,
    logger: parts.log,
    lastEventId,
    ...(d.rateLimit && { fetch: rateLimitedFetch(d.rateLimit, parts.clock) }),
    ...(readGate && { readGate }),
  };
  return options.gateway ? options.gateway(gateway) : new GatewayClient(gateway);
}

/**
 * The host a bot gives its event source: the one way into its intake, queue and dispatcher, whichever
 * source it is. With replicas (`rateLimit` set) the bound counts what the adapter queues and the
 * reader's intake is bounded by the shared backlog; in one process the intake counts what it holds.
 * @param d - the bot's parts and options, its app and start time
 */
export function sourceHost(d: SourceHostDeps): SourceHost {
  const { parts, options } = d;
  const replica = d.rateLimit !== undefined;
  const bound = intakeBound(parts, options.maxPendingEvents, replica ? 'this replica' : 'the gateway');
  const deliver = deliverEvent({ ...parts, orderBy: options.orderBy, startedAt: d.startedAt });
  return {
    appId: d.appId,
    apiUrl: options.apiUrl,
    log: parts.log,
    startLog: d.startLog,
    orderBy: options.orderBy,
    startedAt: d.startedAt,
    openGateway: (lastEventId, readGate, resumePoint = () => lastEventId) => {
      const gateway = openGateway(d, lastEventId, readGate);
      d.watch(gateway, resumePoint);
      return gateway;
    },
    orderingKey: (event: BotEvent) => orderingKey(event, options.orderBy),
    deliver,
    enqueue: (key, task) => {
      bound.add();
      parts.queue.push(key, async () => {
        try {
          return await task();
        } finally {
          bound.done();
        }
      });
    },
    bound,
    dispatch: (event, replayed, carrier, owned) => {
      const traced = parts.telemetry.receive(event, carrier);
      return dispatchTraced(parts.dispatcher, event, replayed || createdBefore(event, d.startedAt), traced, owned);
    },
    relay: (event) => parts.telemetry.relay(event),
    intake: (sink) =>
      new Intake(sink, { ...parts, backfillLimit: options.backfillLimit, pressure: replica ? undefined : bound }),
    gatewayFailed: (error) => d.gatewayFailed(error),
  };
}
