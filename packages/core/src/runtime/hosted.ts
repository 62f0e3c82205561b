import type { RestClientOptions } from '@boardbot/rest';
import type { HealthHub } from '../health/health-hub.js';
import type { GatewayFailure } from '../kernel/ports.js';

/**
 * What a host of apps gives each app's bot, besides its options: the pool its REST client shares,
 * the health endpoint it joins instead of listening itself, and who hears that it stopped for good.
 * (`createHost` makes it; a bot made by `createBot` has none.)
 */
export interface HostedBot {
  /** The HTTP pool the bot's REST client uses (the host's, shared by every app; the host closes it). */
  dispatcher?: RestClientOptions['dispatcher'];
  /** The host's health endpoint, which the bot joins while it runs. @defaultValue none */
  health?: HealthHub | undefined;
  /** Told when the gateway refused the app for good (a revoked token), as the bot stops. */
  failed?(error: GatewayFailure): void;
}
