import type { RequestOptions } from './options.js';

/**
 * What every call of one unit of work carries (a bot's handler run), given to
 * `RestClient.forWork`: the options each call inherits, and the keys of its writes. The client
 * reads it at each call, in the order the calls are made; it is the work's own, passed explicitly.
 */
export interface CallCarrier {
  /**
   * The options each call inherits (request id, logger, signal, trace context): the call's own
   * options win, and two signals both apply. Read at every call: build them once.
   */
  options(): RequestOptions;
  /**
   * The key of the work's next write: a `POST` or `PATCH` that brings no `idempotencyKey` of its own
   * takes one, when it is called (before any wait for the rate limit), so writes made side by side
   * take their keys in the order they were made, and the same work done again sends the same keys.
   */
  nextWriteKey(): string;
}
