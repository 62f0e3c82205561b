import { GatewayClient } from '@boardbot/gateway';
import type { Logger } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import type { BotGateway, BotRest, GatewayFactoryOptions } from '../kernel/ports.js';

/** The default REST client of a bot. */
export function createRest(options: { token: string; baseUrl: string; logger: Logger }): BotRest {
  return new RestClient({ token: options.token, baseUrl: options.baseUrl, logger: options.logger });
}

/** The default gateway client of a bot. */
export function createGateway(options: GatewayFactoryOptions): BotGateway {
  return new GatewayClient({ token: options.token, baseUrl: options.baseUrl, logger: options.logger });
}
