import type { Dispatcher } from 'undici';
import { AbortedError } from './errors.js';
import { RestEventEmitter } from './events.js';
import type { ResolvedRestOptions, RestClientOptions } from './options.js';
import { Buckets } from './ratelimit/buckets.js';
import { Executor } from './request/executor.js';
import { HeaderSets } from './request/headers.js';
import { createRestAgent } from './request/rest-agent.js';
import { CallTracer } from './trace/call-tracer.js';
import { userAgent } from './user-agent.js';

/**
 * The part of a `RestClient` that the clients made from it for works (`forWork`) share: the
 * dispatcher and its connections, the rate-limit queues, the listeners, and closing (which also ends
 * the retries' back-off waits).
 */
export class Transport {
  readonly dispatcher: Dispatcher;
  readonly emitter: RestEventEmitter;
  readonly executor: Executor;
  readonly token: string | undefined;
  private readonly ownsDispatcher: boolean;
  private readonly buckets: Buckets;
  private readonly closer = new AbortController();
  private closing: Promise<void> | undefined;

  /**
   * @param given - the options as given (token, dispatcher, shared rate limit)
   * @param options - the options resolved
   */
  constructor(
    given: RestClientOptions,
    readonly options: ResolvedRestOptions,
  ) {
    const o = options;
    this.token = given.token;
    this.ownsDispatcher = given.dispatcher === undefined;
    this.dispatcher = given.dispatcher ?? createRestAgent();
    this.emitter = new RestEventEmitter(o.logger);
    this.buckets = new Buckets(
      {
        now: o.now,
        maxWaitMs: o.maxRateLimitWaitMs,
        maxQueued: o.maxQueued,
        queued: 0,
        emitter: this.emitter,
        logger: o.logger,
      },
      given.sharedRateLimit,
    );
    const url = new URL(o.baseUrl);
    this.executor = new Executor({
      dispatcher: this.dispatcher,
      origin: url.origin,
      basePath: url.pathname.replace(/\/+$/, ''),
      token: given.token,
      headers: new HeaderSets(userAgent(o.userAgentSuffix), given.token),
      options: o,
      buckets: this.buckets,
      emitter: this.emitter,
      tracer: new CallTracer(o.tracerProvider),
      closing: this.closer.signal,
    });
  }

  /** Stops every call waiting, and closes the dispatcher it owns; safe to call twice. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.buckets.close((call) => new AbortedError('closed', call));
    this.closer.abort();
    this.closing = this.ownsDispatcher ? this.dispatcher.close() : Promise.resolve();
    return this.closing;
  }
}
