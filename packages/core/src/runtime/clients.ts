import { GatewayClient } from '@boardbot/gateway';
import type { Logger } from '@boardbot/protocol';
import type { SharedRateLimit } from '@boardbot/rest';
import { systemClock } from '../kernel/clock.js';
import type { BotGateway, GatewayFactoryOptions } from '../kernel/ports.js';
import type { ResolvedBotOptions } from './resolve-options.js';
import { rateLimitedFetch } from './scale/rate-limited-fetch.js';

/**
 * The one place a bot's gateway client is built: its factory (`createBot({ gateway })`, else a
 * `GatewayClient`), token and URL, resuming after `lastEventId`. A replica's connection reserves a
 * slot of the shared rate limit first, since the platform counts `GET /gateway` against the window.
 *
 * @param options - the bot's gateway factory, token, API URL and clock (which times a replica's wait for a slot)
 * @param logger - the bot's root logger
 * @param lastEventId - where to resume
 * @param rateLimit - the replicas' shared bucket, if any
 * @param readGate - the intake's backpressure: while it returns a promise, the stream is not read
 */
export function openBotGateway(
  options: Pick<ResolvedBotOptions, 'gateway' | 'token' | 'apiUrl' | 'clock'>,
  logger: Logger,
  lastEventId: string | undefined,
  rateLimit?: SharedRateLimit,
  readGate?: () => Promise<void> | undefined,
): BotGateway {
  const gateway: GatewayFactoryOptions = {
    token: options.token,
    baseUrl: options.apiUrl,
    logger,
    lastEventId,
    ...(rateLimit && { fetch: rateLimitedFetch(rateLimit, options.clock ?? systemClock) }),
    ...(readGate && { readGate }),
  };
  return options.gateway ? options.gateway(gateway) : new GatewayClient(gateway);
}
