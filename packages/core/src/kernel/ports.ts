import type { GatewayDispatch, GatewayFetch } from '@boardbot/gateway';
import type { Logger, ReadyEvent } from '@boardbot/protocol';
import type { CallCarrier, RestClient, RestEventListener, RestEvents } from '@boardbot/rest';

/** Options every REST call accepts as its last argument (signal, idempotency key, correlation id, logger). */
export type { RequestOptions } from '@boardbot/rest';

/**
 * The REST port: the platform's app API as a bot and its handlers (`ctx.rest`) call it.
 * `@boardbot/rest`'s `RestClient` implements it, and is what the runtime builds; give another as
 * `createBot({ rest })` (a test's fake, a client in front of a cache): see docs/architecture.md, "Ports".
 */
export interface BotRest
  extends Pick<
    RestClient,
    // The app API's calls as `RestClient` types them; `options` keys what a bot keeps per client.
    | 'options'
    | 'listBoards'
    | 'getBoard'
    | 'listMembers'
    | 'listMessages'
    | 'iterateMessages'
    | 'sendMessage'
    | 'editMessage'
    | 'deleteMessage'
    | 'getUser'
    | 'getApp'
    | 'listCommands'
    | 'replaceCommands'
    | 'answerInteraction'
    | 'close'
  > {
  /** Listens to the client's responses, retries and rate limits (the bot's metrics do). */
  on<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): unknown;
  /** Stops listening. */
  off<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): unknown;
  /**
   * The client of one unit of work (a handler run): it shares this one's connections and queues, and
   * its calls carry what `carrier` gives (see `RestClient.forWork`).
   */
  forWork(carrier: CallCarrier): BotRest;
}

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
