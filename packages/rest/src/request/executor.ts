import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { IDEMPOTENCY_KEY_PATTERN, type Logger } from '@boardbot/protocol';
import type { Dispatcher } from 'undici';
import {
  AbortedError,
  ApiError,
  type BoardbotRestError,
  type ErrorContext,
  InvalidArgumentError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  TimeoutError,
  UnauthorizedError,
} from '../errors.js';
import type { RestEventEmitter, RetryEvent } from '../events.js';
import type { RequestOptions, ResolvedRestOptions } from '../options.js';
import type { Buckets } from '../ratelimit/buckets.js';
import { parseHttpDate, parseRetryAfter } from '../ratelimit/parse-reset.js';
import type { QueuedCall } from '../ratelimit/rate-limit-queue.js';
import { header, readRateLimitHeaders } from '../ratelimit/read-headers.js';
import { backoffDelay, RETRYABLE_STATUSES } from '../retry/backoff.js';
import type { Sleeper } from '../retry/sleeper.js';
import type { Call } from './call.js';
import { classifyTransportError, type TransportFailure } from './classify.js';
import { excerpt, parseErrorBody, readBounded, redact } from './read-body.js';

const KEY_PATTERN = new RegExp(IDEMPOTENCY_KEY_PATTERN);
const REQUEST_ID_PATTERN = /^[\x21-\x7E]{1,255}$/;
// Without any hint, a 429 waits one window of the contract's default limit.
const DEFAULT_RETRY_AFTER_MS = 1000;

/** What the executor needs from its client. */
export interface ExecutorDeps {
  dispatcher: Dispatcher;
  origin: string;
  basePath: string;
  token: string | undefined;
  options: ResolvedRestOptions;
  buckets: Buckets;
  sleeper: Sleeper;
  emitter: RestEventEmitter;
  userAgent: string;
  isClosed(): boolean;
}

type Headers = Record<string, string>;

/**
 * Runs calls: waits for the rate limit, sends one attempt at a time, reads the answer, and decides
 * whether to retry. Everything per call lives in `run`; the prebuilt header sets keep the hot path
 * to one object spread at most.
 */
export class Executor {
  private readonly appHeaders: Headers;
  private readonly appJsonHeaders: Headers;
  private readonly interactionHeaders: Headers;

  /** @param deps - the client's dispatcher, options, queues and emitter */
  constructor(private readonly deps: ExecutorDeps) {
    const base: Headers = { 'user-agent': deps.userAgent, accept: 'application/json' };
    this.appHeaders = deps.token ? { ...base, authorization: `Bearer ${deps.token}` } : base;
    this.appJsonHeaders = { ...this.appHeaders, 'content-type': 'application/json' };
    // CONTRACT: endpoint 12 carries no Authorization header; the path token is the credential.
    this.interactionHeaders = { ...base, 'content-type': 'application/json' };
  }

  /**
   * Runs one call to completion: its answer's body, or a typed error.
   * @param call - the call
   * @param o - its options (signal, idempotency key, request id, logger)
   */
  async run(call: Call, o: RequestOptions | undefined): Promise<unknown> {
    const ctx: ErrorContext = { method: call.method, path: call.logPath };
    const deps = this.deps;
    if (deps.isClosed()) throw new AbortedError('closed', ctx);
    if (!call.interactionToken && !deps.token) {
      throw new InvalidArgumentError(
        `${call.method} ${call.logPath} needs the app token: pass \`token\` to new RestClient() (usually process.env.BOARDBOT_TOKEN)`,
        [],
        ctx,
      );
    }
    const headers = this.headersFor(call, o, ctx);
    const signal = o?.signal;
    let logger: Logger | undefined;
    const queued: QueuedCall = {
      ...ctx,
      signal,
      log: () => {
        logger ??= (o?.logger ?? deps.options.logger).child({
          method: call.method,
          path: call.logPath,
          requestId: o?.requestId,
        });
        return logger;
      },
    };
    const queue = call.interactionToken ? deps.buckets.interaction(call.interactionToken) : deps.buckets.app;
    const { options } = deps;
    let attempt = 0;
    let retriesUsed = 0;
    let limited = 0;
    try {
      for (;;) {
        // A retry after close() must not queue again (the queues were emptied and would never drain).
        if (attempt > 0 && deps.isClosed()) throw new AbortedError('closed', ctx);
        const slot = queue.acquire(queued, attempt > 0);
        const generation = typeof slot === 'number' ? slot : await slot;
        if (deps.isClosed()) {
          queue.settle(null, generation);
          throw new AbortedError('closed', ctx);
        }
        attempt++;
        const started = performance.now();
        let res: Dispatcher.ResponseData;
        try {
          res = await deps.dispatcher.request({
            origin: deps.origin,
            path: deps.basePath + call.path,
            method: call.method,
            headers,
            body: call.body ?? null,
            signal,
            headersTimeout: options.timeoutMs,
            bodyTimeout: options.timeoutMs,
          });
        } catch (err) {
          queue.settle(null, generation);
          const failure = classifyTransportError(err, signal);
          const error = this.transportError(failure, attempt, ctx);
          if (failure.kind === 'aborted' || failure.kind === 'closed' || retriesUsed >= options.retries) throw error;
          retriesUsed++;
          await this.backoff(attempt, failure.kind === 'timeout' ? 'timeout' : 'network', undefined, queued, o);
          continue;
        }
        const status = res.statusCode;
        const now = options.now();
        queue.settle(readRateLimitHeaders(res.headers, now), generation);
        if (deps.emitter.has('response')) {
          const event = {
            method: call.method,
            path: call.logPath,
            status,
            attempt,
            durationMs: performance.now() - started,
          };
          deps.emitter.emit('response', o?.requestId ? { ...event, requestId: o.requestId } : event);
        }
        let error: BoardbotRestError;
        let retryReason: RetryEvent['reason'];
        if (status < 300) {
          try {
            return await this.readSuccess(res, call, ctx);
          } catch (err) {
            if (err instanceof InvalidResponseError) {
              error = err;
              retryReason = 'invalid_response';
            } else {
              const failure = classifyTransportError(err, signal);
              error = this.transportError(failure, attempt, ctx);
              if (failure.kind === 'aborted' || failure.kind === 'closed') throw error;
              retryReason = failure.kind === 'timeout' ? 'timeout' : 'network';
            }
          }
        } else {
          const init = parseErrorBody(status, await this.readErrorText(res, signal, ctx, attempt));
          init.serverMessage = redact(init.serverMessage, [deps.token, call.interactionToken]);
          if (status === 429) {
            limited++;
            const waitMs = this.retryAfterMs(res.headers, init.retryAfter, now);
            const bucket = queue.bucket;
            if (waitMs > options.maxRateLimitWaitMs) {
              throw new RateLimitError(
                { retryAfterMs: waitMs, bucket, limit: queue.state.limit, reason: 'max_wait' },
                ctx,
              );
            }
            if (limited > options.rateLimitRetries) {
              throw new RateLimitError(
                { retryAfterMs: waitMs, bucket, limit: queue.state.limit, reason: 'too_many_429' },
                ctx,
              );
            }
            // The whole credential waits, not only this call: the queue holds the others back too.
            queue.block(waitMs);
            this.emitRetry(
              { method: call.method, path: call.logPath, attempt, delayMs: waitMs, reason: 'rate_limited', status },
              queued,
              o,
            );
            continue;
          }
          error = status === 401 ? new UnauthorizedError(init, ctx) : new ApiError(init, ctx);
          retryReason = 'status';
          // A retry of our own POST can meet the first attempt still running (IETF Idempotency-Key
          // draft, 409): it is the same request, so waiting and asking again is the only right move.
          const inProgress = status === 409 && init.apiCode === 'idempotency_in_progress' && attempt > 1;
          if (!RETRYABLE_STATUSES.has(status) && !inProgress) throw error;
        }
        if (retriesUsed >= options.retries) throw error;
        retriesUsed++;
        const hinted = status === 503 ? parseRetryAfter(header(res.headers, 'retry-after'), now) : undefined;
        await this.backoff(attempt, retryReason, status, queued, o, hinted);
      }
    } finally {
      if (call.interactionToken) deps.buckets.release(call.interactionToken);
    }
  }

  private headersFor(call: Call, o: RequestOptions | undefined, ctx: ErrorContext): Headers {
    let headers = call.interactionToken ? this.interactionHeaders : call.body ? this.appJsonHeaders : this.appHeaders;
    const requestId = o?.requestId;
    if (call.method === 'POST') {
      const key = o?.idempotencyKey ?? randomUUID();
      if (!KEY_PATTERN.test(key)) {
        throw new InvalidArgumentError(
          'Invalid idempotencyKey',
          [{ path: '/idempotencyKey', message: 'Expected 1..255 visible ASCII characters' }],
          ctx,
        );
      }
      headers = { ...headers, 'idempotency-key': key };
    }
    if (requestId !== undefined) {
      if (!REQUEST_ID_PATTERN.test(requestId)) {
        throw new InvalidArgumentError(
          'Invalid requestId',
          [{ path: '/requestId', message: 'Expected 1..255 visible ASCII characters' }],
          ctx,
        );
      }
      headers = { ...headers, 'x-request-id': requestId };
    }
    return headers;
  }

  private async readSuccess(res: Dispatcher.ResponseData, call: Call, ctx: ErrorContext): Promise<unknown> {
    if (call.expect === 'empty' || res.statusCode === 204) {
      await res.body.dump();
      return undefined;
    }
    const text = await res.body.text();
    try {
      return JSON.parse(text);
    } catch (err) {
      const shown = redact(excerpt(text), [this.deps.token, call.interactionToken]);
      throw new InvalidResponseError(
        { status: res.statusCode, problem: 'not JSON (truncated or not an API answer)', excerpt: shown },
        ctx,
        err,
      );
    }
  }

  private async readErrorText(
    res: Dispatcher.ResponseData,
    signal: AbortSignal | undefined,
    ctx: ErrorContext,
    attempt: number,
  ): Promise<string> {
    try {
      return await readBounded(res.body);
    } catch (err) {
      const failure = classifyTransportError(err, signal);
      if (failure.kind === 'aborted') throw this.transportError(failure, attempt, ctx);
      // The status is known; a body cut short only loses the details.
      return '';
    }
  }

  private retryAfterMs(
    headers: Dispatcher.ResponseData['headers'],
    bodySeconds: number | undefined,
    now: number,
  ): number {
    // CONTRACT: `error.retry_after` is the precise decimal; `Retry-After` is whole seconds rounded up.
    let ms = bodySeconds !== undefined && bodySeconds >= 0 ? bodySeconds * 1000 : undefined;
    ms ??= parseRetryAfter(header(headers, 'retry-after'), now, () => parseHttpDate(header(headers, 'date')));
    ms ??= readRateLimitHeaders(headers, now)?.resetDelayMs;
    if (ms === undefined || Number.isNaN(ms)) ms = DEFAULT_RETRY_AFTER_MS;
    return ms > 0 ? Math.ceil(ms) : 0;
  }

  private transportError(failure: TransportFailure, attempt: number, ctx: ErrorContext): BoardbotRestError {
    switch (failure.kind) {
      case 'aborted':
        return new AbortedError('signal', ctx, failure.cause);
      case 'closed':
        return this.deps.isClosed()
          ? new AbortedError('closed', ctx, failure.cause)
          : new NetworkError({ attempts: attempt, causeCode: 'UND_ERR_CLOSED' }, ctx, failure.cause);
      case 'timeout':
        return new TimeoutError({ timeoutMs: this.deps.options.timeoutMs, attempts: attempt }, ctx, failure.cause);
      case 'network':
        return new NetworkError({ attempts: attempt, causeCode: failure.code }, ctx, failure.cause);
    }
  }

  private async backoff(
    attempt: number,
    reason: RetryEvent['reason'],
    status: number | undefined,
    call: QueuedCall,
    o: RequestOptions | undefined,
    hintedMs?: number,
  ): Promise<void> {
    const { retryBaseMs, retryMaxMs, random } = this.deps.options;
    const delayMs =
      hintedMs !== undefined && hintedMs >= 0
        ? Math.min(hintedMs, retryMaxMs)
        : backoffDelay(attempt, retryBaseMs, retryMaxMs, random);
    const event: RetryEvent = { method: call.method, path: call.path, attempt, delayMs, reason };
    if (status !== undefined) event.status = status;
    this.emitRetry(event, call, o);
    await this.deps.sleeper.sleep(delayMs, call, o?.signal);
  }

  private emitRetry(event: RetryEvent, call: QueuedCall, o: RequestOptions | undefined): void {
    if (o?.requestId) event.requestId = o.requestId;
    call.log().debug(event, `retrying after ${event.reason}`);
    if (this.deps.emitter.has('retry')) this.deps.emitter.emit('retry', event);
  }
}
