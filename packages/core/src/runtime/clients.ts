import { GatewayClient } from '@boardbot/gateway';
import type { Logger } from '@boardbot/protocol';
import { RestClient, type SharedRateLimit } from '@boardbot/rest';
import type { TracerProvider } from '@opentelemetry/api';
import type { BotGateway, BotRest, GatewayFactoryOptions } from '../kernel/ports.js';

/** The default REST client of a bot: calls made inside a handler inherit the handler's scope. */
export function createRest(options: {
  token: string;
  baseUrl: string;
  logger: Logger;
  tracerProvider: TracerProvider | false;
  sharedRateLimit?: SharedRateLimit | undefined;
}): BotRest {
  return new RestClient({
    token: options.token,
    baseUrl: options.baseUrl,
    logger: options.logger,
    tracerProvider: options.tracerProvider,
    sharedRateLimit: options.sharedRateLimit,
  });
}

/** The default gateway client of a bot, resuming after the stored position. */
export function createGateway(options: GatewayFactoryOptions): BotGateway {
  return new GatewayClient({
    token: options.token,
    baseUrl: options.baseUrl,
    logger: options.logger,
    lastEventId: options.lastEventId,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
