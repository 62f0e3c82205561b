import type { Dispatcher } from 'undici';
import { Agent } from './undici-agent.js';

// Keep idle sockets long enough to be reused between a bot's bursts, not forever.
const KEEP_ALIVE_MS = 30_000;

/**
 * The connection pool a `RestClient` makes for itself when given no `dispatcher`: a keep-alive undici
 * `Agent`. Made here too for whoever shares one pool between several clients (a host of apps), so
 * that every client gets the same pool settings; the caller owns it and closes it.
 */
export function createRestAgent(): Dispatcher {
  return new Agent({ keepAliveTimeout: KEEP_ALIVE_MS });
}
