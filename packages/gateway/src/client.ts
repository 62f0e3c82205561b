import type { GatewayEventName, Logger, ReadyEvent } from '@boardbot/protocol';
import { EventDelivery } from './delivery/event-delivery.js';
import { TypedEmitter } from './emitter/typed-emitter.js';
import {
  GatewayClosedError,
  type GatewayError,
  GatewayMalformedEventError,
  GatewayRateLimitedError,
  GatewayServerError,
} from './errors.js';
import { decodeFrame } from './events/decode-frame.js';
import { ResumePoint } from './events/resume-point.js';
import { type GatewayClientOptions, type ResolvedGatewayOptions, resolveOptions } from './options.js';
import { reconnectDelay } from './reconnect/reconnect-delay.js';
import { StateMachine } from './state/state-machine.js';
import { GatewayConnection } from './transport/connection.js';
import type { GatewayClientEvents, GatewayDispatch, GatewayState } from './types.js';

/**
 * Keeps a bot connected to `GET /gateway` for days and delivers every event once, in order: typed
 * events on the emitter (`ready`, `message.create`, ...), every event (unknown names included) on
 * `dispatch` and through `events()`. It reconnects with back-off on network errors, 429 and 5xx,
 * resumes with `Last-Event-ID`, drops duplicates by id, reports a `gap` when the server could not
 * resume, watches for dead sockets, and stops for good on 401/403.
 *
 * @example
 * const gw = new GatewayClient({ token: process.env.BOARDBOT_TOKEN! });
 * gw.on('message.create', ({ message }) => console.log(message.content));
 * gw.on('gap', ({ lastEventId }) => backfillSince(lastEventId));
 * await gw.connect();
 */
export class GatewayClient extends TypedEmitter<GatewayClientEvents> {
  readonly #options: ResolvedGatewayOptions;
  readonly #log: Logger;
  readonly #url: string;
  readonly #machine = new StateMachine();
  readonly #resume: ResumePoint;
  readonly #delivery: EventDelivery;
  #lastEventId: string | undefined;
  #connection: GatewayConnection | undefined;
  #stopping: Promise<void> = Promise.resolve();
  #attempt = 0;
  #serverRetryMs: number | undefined;
  #sentLastEventId: string | undefined;
  #reconnectTimer: unknown;
  #reconnectPending = false;
  #ready: { promise: Promise<ReadyEvent>; resolve(r: ReadyEvent): void; reject(e: unknown): void } | undefined;

  /**
   * @param options - The token and, optionally, where to connect and how to behave.
   * @throws GatewayOptionsError when an option cannot work (the message names it).
   */
  constructor(options: GatewayClientOptions) {
    const resolved = resolveOptions(options);
    super(() => resolved.logger);
    this.#options = resolved;
    this.#log = resolved.logger.child({ component: 'gateway' });
    this.#url = `${resolved.baseUrl.replace(/\/+$/, '')}/gateway`;
    this.#resume = new ResumePoint(resolved.lastEventId);
    this.#lastEventId = resolved.lastEventId;
    this.#delivery = new EventDelivery({
      maxBufferedEvents: resolved.maxBufferedEvents,
      deliver: (event) => this.#deliver(event),
    });
  }

  /** Where the client is: `idle`, `connecting`, `open`, `reconnecting` or `closed`. */
  get state(): GatewayState {
    return this.#machine.state;
  }

  /**
   * The id of the last event delivered: persist it and pass it back as the `lastEventId` option
   * after a restart to resume there. (An `events()` consumer that lags behind should persist the
   * `id` of each event it finished instead.)
   */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /**
   * Opens the stream (once; later calls return the same promise).
   *
   * @returns The first `ready` event.
   * @throws GatewayUnauthorizedError, GatewayForbiddenError or GatewayHttpError when the server
   *   refuses for good; GatewayClosedError when `close()` came first.
   */
  connect(): Promise<ReadyEvent> {
    if (this.#ready) return this.#ready.promise;
    let resolve: (r: ReadyEvent) => void = () => {};
    let reject: (e: unknown) => void = () => {};
    const promise = new Promise<ReadyEvent>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#ready = { promise, resolve, reject };
    if (this.#machine.state === 'closed') reject(new GatewayClosedError());
    else this.#open();
    return promise;
  }

  /**
   * Every event from now on, in order, exactly once (unknown names included), as an async
   * iterator. Its buffer holds at most `maxBufferedEvents`: when full, the client stops reading the
   * socket until the consumer catches up. Create it before `connect()`, or right after it resolves.
   */
  events(): AsyncIterableIterator<GatewayDispatch> {
    return this.#delivery.iterate();
  }

  /**
   * Closes the stream for good: iterators yield what they hold and end, `connect()` (if still
   * pending) rejects with GatewayClosedError, and no timer or socket is left once it resolves.
   */
  async close(): Promise<void> {
    if (this.#machine.state !== 'closed') this.#shutDown(undefined);
    await this.#stopping;
  }

  #open(): void {
    this.#reconnectPending = false;
    this.#machine.to('connecting');
    this.#sentLastEventId = this.#resume.id;
    this.emit('connecting', { attempt: this.#attempt, lastEventId: this.#sentLastEventId });
    this.#log.debug({ attempt: this.#attempt, lastEventId: this.#sentLastEventId }, 'gateway connecting');
    const connection: GatewayConnection = new GatewayConnection(
      {
        url: this.#url,
        token: this.#options.token,
        fetch: this.#options.fetch,
        lastEventId: this.#sentLastEventId,
        keepAliveTimeoutMs: this.#options.keepAliveTimeoutMs,
        maxFrameBytes: this.#options.maxFrameBytes,
        clock: this.#options,
      },
      {
        open: () => this.#onOpen(),
        frame: (name, data, id) => this.#onFrame(name, data, id),
        retry: (ms) => {
          this.#serverRetryMs = ms;
        },
        end: (reason) => this.#onEnd(connection, reason),
        gate: () => this.#delivery.gate() ?? this.#options.readGate?.(),
      },
    );
    this.#connection = connection;
    connection.start();
  }

  #onOpen(): void {
    this.#machine.to('open');
    this.#log.info({ url: this.#url }, 'gateway stream open');
    this.emit('open');
  }

  #onFrame(name: string, data: string, id: string): void {
    const event = decodeFrame(name, id, data);
    if (event instanceof GatewayMalformedEventError) {
      this.#malformed(event, id);
      return;
    }
    if (event.name === 'ready' && !event.unknown) {
      this.#resume.ready(event.data, id);
    } else if (this.#resume.admit(id) === 'duplicate') {
      this.#log.debug({ id, name }, 'gateway dropped a duplicate event');
      return;
    }
    this.#delivery.accept(event);
  }

  #malformed(error: GatewayMalformedEventError, id: string): void {
    // Skipped for good: the same bytes would come back on every resume.
    if (error.eventName !== 'ready') this.#resume.admit(id);
    this.#log.warn({ id, event: error.eventName, issues: error.issues }, error.message);
    this.emit('error', error);
  }

  #deliver(event: GatewayDispatch): void {
    if (event.name === 'ready' && !event.unknown) {
      const ready = event.data;
      if (!ready.resumed) this.#lastEventId = event.id === '' ? undefined : event.id;
      // A connection that got as far as `ready` is healthy: the next failure starts the back-off over.
      this.#attempt = 0;
      // Settled first: a listener below that calls close() must not turn a connect() that succeeded
      // into a failure.
      this.#ready?.resolve(ready);
      this.emit('ready', ready, { id: event.id });
      this.emit('dispatch', event);
      if (ready.gap) {
        this.#log.warn({ lastEventId: this.#sentLastEventId }, 'gateway could not resume: events were missed');
        this.emit('gap', { lastEventId: this.#sentLastEventId, ready });
      }
      return;
    }
    if (event.id !== '') this.#lastEventId = event.id;
    // `event` is a known event: its name and data were checked together by decodeFrame, which TypeScript
    // cannot follow through a union, hence the one cast.
    if (!event.unknown)
      this.emit(event.name as Exclude<GatewayEventName, 'ready'>, event.data as never, { id: event.id });
    this.emit('dispatch', event);
  }

  #onEnd(connection: GatewayConnection, reason: GatewayError): void {
    if (this.#connection !== connection || this.#machine.state === 'closed') return;
    this.#connection = undefined;
    if (reason.fatal) {
      this.#log.error({ code: reason.code, status: reason.request?.status }, reason.message);
      this.#shutDown(reason);
      return;
    }
    this.#attempt++;
    const retryAfterMs =
      reason instanceof GatewayRateLimitedError || reason instanceof GatewayServerError
        ? reason.retryAfterMs
        : undefined;
    const delayMs = reconnectDelay(
      { attempt: this.#attempt, serverRetryMs: this.#serverRetryMs, retryAfterMs, random: this.#options.random() },
      this.#options.reconnect,
    );
    this.#machine.to('reconnecting');
    this.#log.warn({ code: reason.code, attempt: this.#attempt, delayMs }, reason.message);
    this.emit('reconnecting', { attempt: this.#attempt, delayMs, reason });
    if (this.#machine.state !== 'reconnecting') return; // a listener closed the client
    this.#reconnectPending = true;
    this.#reconnectTimer = this.#options.setTimeout(() => this.#open(), delayMs);
  }

  #shutDown(reason: GatewayError | undefined): void {
    this.#machine.to('closed');
    if (this.#reconnectPending) this.#options.clearTimeout(this.#reconnectTimer);
    this.#reconnectPending = false;
    const connection = this.#connection;
    this.#connection = undefined;
    this.#stopping = connection ? connection.stop() : Promise.resolve();
    this.#delivery.close(reason);
    const ready = this.#ready;
    if (ready) {
      // A connect() that already resolved ignores this; one still waiting learns why.
      ready.reject(reason ?? new GatewayClosedError());
      ready.promise.catch(() => {});
    }
    if (reason) this.emit('error', reason);
    this.#log.info({ code: reason?.code }, 'gateway closed');
    this.emit('closed', { reason });
  }
}
