import type { GatewayDispatch, GatewayFetch } from '@boardbot/gateway';
import type { Logger, ReadyEvent } from '@boardbot/protocol';
import type { RestClient } from '@boardbot/rest';

/** Options every REST call accepts as its last argument (signal, idempotency key, correlation id, logger). */
export type { RequestOptions } from '@boardbot/rest';

/**
 * The REST client of a bot and of `ctx.rest`: `@boardbot/rest`'s full `RestClient`. The runtime
 * itself only uses a few of its calls.
 */
export type BotRest = RestClient;

/** What the runtime passes when it builds the gateway client. */
export interface GatewayFactoryOptions {
  token: string;
  baseUrl: string;
  logger: Logger;
  /** The stored resume point: the gateway resumes after this event id (`Last-Event-ID`). */
  lastEventId: string | undefined;
  /** The fetch that opens the stream (a replica's reserves a slot of the shared rate limit). @defaultValue undici's */
  fetch?: GatewayFetch;
  /** While it returns a promise, the client stops reading the stream (the intake's backpressure). */
  readGate?: () => Promise<void> | undefined;
}

/** An error a gateway client reports; `fatal` (as `@boardbot/gateway` sets it) when it gave up for good. */
export type GatewayFailure = Error & { readonly fatal?: boolean };

/** What the runtime needs of a gateway client (the `@boardbot/gateway` `GatewayClient` shape). */
export interface BotGateway {
  /** Opens the stream; resolves with the first `ready` payload. */
  connect(): Promise<ReadyEvent>;
  on(event: 'dispatch', listener: (event: GatewayDispatch) => void): unknown;
  /** `fatal` errors (a refused token) mean the stream is closed for good. */
  on(event: 'error', listener: (error: GatewayFailure) => void): unknown;
  /** The stream dropped and the client will connect again (readiness and the metrics listen). */
  on(event: 'reconnecting', listener: () => void): unknown;
  close(): Promise<void>;
}
