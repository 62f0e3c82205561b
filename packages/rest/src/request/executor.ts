import { performance } from 'node:perf_hooks';
import type { Logger } from '@boardbot/protocol';
import { backoffDelay, readRetryAfter } from '@boardbot/protocol/http';
import type { Dispatcher } from 'undici';
import {
  AbortedError,
  ApiError,
  type BoardbotRestError,
  type ErrorContext,
  InvalidArgumentError,
  InvalidResponseError,
  RateLimitError,
  UnauthorizedError,
} from '../errors.js';
import type { RestEventEmitter, RetryEvent } from '../events.js';
import type { RequestOptions, ResolvedRestOptions } from '../options.js';
import type { Buckets } from '../ratelimit/buckets.js';
import type { CallQueue, QueuedCall } from '../ratelimit/call-queue.js';
import { header, readRateLimitHeaders } from '../ratelimit/read-headers.js';
import { retryAfterDelay } from '../ratelimit/retry-after.js';
import { backoffWait } from '../retry/backoff-wait.js';
import { RETRY_JITTER, RETRYABLE_STATUSES } from '../retry/retry-policy.js';
import { type CallTracer, endCallSpan } from '../trace/call-tracer.js';
import type { Call } from './call.js';
import { transportFailure } from './classify.js';
import type { HeaderSets } from './headers.js';
import { MAX_ERROR_BODY_BYTES, parseErrorBody, parseSuccessBody } from './read-body.js';
import { secretsOf } from './redact.js';
import { BodyFailure, type ReadAnswer, sendCall } from './send-call.js';

/** What the executor needs from its client. */
export interface ExecutorDeps {
  dispatcher: Dispatcher;
  origin: string;
  basePath: string;
  token: string | undefined;
  headers: HeaderSets;
  options: ResolvedRestOptions;
  buckets: Buckets;
  emitter: RestEventEmitter;
  tracer: CallTracer;
  /** Aborted when the client closes. */
  closing: AbortSignal;
}

/** What one attempt came to when it did not return: the error, and whether another attempt may fix it. */
interface Failed {
  error: BoardbotRestError;
  reason: RetryEvent['reason'];
  retryable: boolean;
  /** A back-off the server asked for (a 503's `Retry-After`). */
  hintedMs?: number | undefined;
  status?: number;
}

/** One call in progress: its context, queue and counters. */
interface Run {
  call: Call;
  o: RequestOptions | undefined;
  ctx: QueuedCall;
  queue: CallQueue;
  headers: Record<string, string>;
  attempt: number;
  /** 429 answers so far (bounded by `rateLimitRetries`, apart from `retries`). */
  limited: number;
  /** The status of the last answer, for the call's span. */
  status?: number | undefined;
}

/**
 * Runs calls: waits for the rate limit, sends one attempt at a time, reads the answer, and decides
 * whether to retry. The common path (a slot is free, the answer is a 2xx) allocates no promise
 * beyond undici's own and one header object at most.
 */
export class Executor {
  /** @param deps - the client's dispatcher, headers, options, queues and emitter */
  constructor(private readonly deps: ExecutorDeps) {}

  /**
   * Runs one call to completion: its answer's body, or a typed error.
   * @param call - the call
   * @param o - its options (signal, idempotency key, request id, logger)
   */
  async run(call: Call, o: RequestOptions | undefined): Promise<unknown> {
    const deps = this.deps;
    const ctx = queuedCall(call, o, deps.options.logger, deps.origin + deps.basePath);
    if (deps.closing.aborted) throw new AbortedError('closed', ctx);
    if (!call.interactionToken && !deps.token) {
      throw new InvalidArgumentError(
        `${call.method} ${call.logPath} needs the app token: pass \`token\` to new RestClient() (usually process.env.BOARDBOT_TOKEN)`,
        [],
        ctx,
      );
    }
    const queue = call.interactionToken ? deps.buckets.interaction(call.interactionToken) : deps.buckets.app;
    const headers = deps.headers.for(call, o, ctx);
    const traced = deps.tracer.start(call, o?.traceContext, headers);
    const run: Run = { call, o, ctx, queue, headers, attempt: 0, limited: 0 };
    let retriesUsed = 0;
    try {
      for (;;) {
        const result = await this.attempt(run);
        if (result === RETRY_NOW) continue;
        if (!(result instanceof FailedAttempt)) {
          endCallSpan(traced, run.status, run.attempt);
          return result;
        }
        const failed = result.failed;
        if (!failed.retryable || retriesUsed >= deps.options.retries) throw failed.error;
        retriesUsed++;
        await this.backoff(run, failed);
      }
    } catch (error) {
      endCallSpan(traced, run.status, run.attempt, error);
      throw error;
    } finally {
      if (call.interactionToken) deps.buckets.release(call.interactionToken);
    }
  }

  /** One attempt: its parsed body, {@link RETRY_NOW} after a 429 wait, or what failed. */
  private async attempt(run: Run): Promise<unknown> {
    const { deps } = this;
    const { call, ctx, queue, o } = run;
    const signal = o?.signal;
    // A retry after close() must not queue again (the queues were emptied and would never drain).
    if (run.attempt > 0 && deps.closing.aborted) throw new AbortedError('closed', ctx);
    const slot = queue.acquire(ctx, run.attempt > 0);
    const generation = typeof slot === 'number' ? slot : await slot;
    if (deps.closing.aborted) {
      queue.settle(null, generation);
      throw new AbortedError('closed', ctx);
    }
    if (o?.admit) {
      try {
        o.admit();
      } catch (error) {
        queue.settle(null, generation);
        throw error;
      }
    }
    const attempt = ++run.attempt;
    const started = performance.now();
    // When the answer's head arrived (0: not yet), and the clock then (rate limits, Retry-After).
    let headAt = 0;
    let now = 0;
    const empty = call.expect === 'empty';
    let answer: ReadAnswer;
    try {
      answer = await sendCall(
        deps.dispatcher,
        {
          origin: deps.origin,
          path: deps.basePath + call.path,
          method: call.method,
          headers: run.headers,
          body: call.body ?? null,
          headersTimeout: deps.options.timeoutMs,
          bodyTimeout: deps.options.timeoutMs,
        },
        signal,
        // An error body is bounded (an HTML error page can be huge); so is one nobody reads.
        (status) => (status < 300 && status !== 204 && !empty ? Number.POSITIVE_INFINITY : MAX_ERROR_BODY_BYTES),
        (status, headers) => {
          headAt = performance.now();
          now = deps.options.now();
          run.status = status;
          // The slot is given back as soon as the head says how the bucket stands, not after the body.
          queue.settle(readRateLimitHeaders(headers, now), generation);
        },
      );
    } catch (err) {
      if (headAt === 0) {
        queue.settle(null, generation);
        return this.transportFailure(err, run);
      }
      // The status is known; an error body cut short only loses the details, unless the caller aborted.
      if (!(err instanceof BodyFailure) || err.statusCode < 300 || signal?.aborted) {
        this.emitResponse(run, attempt, headAt - started);
        return this.transportFailure(err instanceof BodyFailure ? err.cause : err, run);
      }
      answer = { statusCode: err.statusCode, headers: err.headers, text: '' };
    }
    this.emitResponse(run, attempt, headAt - started);
    const status = answer.statusCode;
    if (status < 300) {
      if (empty || status === 204) return undefined;
      try {
        return parseSuccessBody(answer, ctx, () => secretsOf(deps.token, call));
      } catch (err) {
        return new FailedAttempt({ error: err as InvalidResponseError, reason: 'invalid_response', retryable: true });
      }
    }
    const { text, headers } = answer;
    const init = parseErrorBody(status, text, secretsOf(deps.token, call));
    if (status === 429) return this.rateLimited(run, headers, init.retryAfter, now);
    const error = status === 401 ? new UnauthorizedError(init, ctx) : new ApiError(init, ctx);
    // The key names the request (the same key with another body is a 422): a 409 means that very
    // request is still running (IETF Idempotency-Key draft), our own first attempt or another process
    // sending under the same key (two replicas resuming one broadcast), so waiting and asking again
    // gets its answer replayed.
    const inProgress = status === 409 && init.apiCode === 'idempotency_in_progress';
    const hintedMs =
      status === 503 ? readRetryAfter(header(headers, 'retry-after'), now, header(headers, 'date')) : undefined;
    return new FailedAttempt({
      error,
      reason: 'status',
      retryable: RETRYABLE_STATUSES.has(status) || inProgress,
      hintedMs,
      status,
    });
  }

  /** The `response` event of an attempt whose head arrived `durationMs` after it was sent. */
  private emitResponse(run: Run, attempt: number, durationMs: number): void {
    const { emitter } = this.deps;
    if (!emitter.has('response')) return;
    const { call, o } = run;
    const event = {
      method: call.method,
      path: call.logPath,
      route: call.route,
      status: run.status as number,
      attempt,
      durationMs,
    };
    emitter.emit('response', o?.requestId ? { ...event, requestId: o.requestId } : event);
  }

  private transportFailure(err: unknown, run: Run): FailedAttempt {
    const { options, closing } = this.deps;
    const closed = closing.aborted;
    const { error, retry } = transportFailure(err, run.o?.signal, run.attempt, run.ctx, options.timeoutMs, closed);
    if (retry === undefined) throw error;
    return new FailedAttempt({ error, reason: retry, retryable: true });
  }

  /** CONTRACT: on 429 the credential waits `retry_after`; the call keeps its place and tries again. */
  private rateLimited(
    run: Run,
    headers: Dispatcher.ResponseData['headers'],
    bodySeconds: number | undefined,
    now: number,
  ): typeof RETRY_NOW {
    const { options } = this.deps;
    const waitMs = retryAfterDelay(headers, bodySeconds, now);
    const context = { retryAfterMs: waitMs, bucket: run.queue.bucket, limit: run.queue.limit };
    if (waitMs > options.maxRateLimitWaitMs) throw new RateLimitError({ ...context, reason: 'max_wait' }, run.ctx);
    if (++run.limited > options.rateLimitRetries)
      throw new RateLimitError({ ...context, reason: 'too_many_429' }, run.ctx);
    // The whole credential waits, not only this call: the queue holds the others back too.
    run.queue.block(waitMs);
    this.emitRetry(run, waitMs, 'rate_limited', 429);
    return RETRY_NOW;
  }

  private async backoff(run: Run, failed: Failed): Promise<void> {
    const { retryBaseMs, retryMaxMs, random } = this.deps.options;
    const delayMs =
      failed.hintedMs !== undefined && failed.hintedMs >= 0
        ? Math.min(Math.ceil(failed.hintedMs), retryMaxMs)
        : backoffDelay({
            attempt: run.attempt,
            baseMs: retryBaseMs,
            maxMs: retryMaxMs,
            jitter: RETRY_JITTER,
            random: random(),
          });
    this.emitRetry(run, delayMs, failed.reason, failed.status);
    await backoffWait(delayMs, run.ctx, run.o?.signal, this.deps.closing);
  }

  private emitRetry(run: Run, delayMs: number, reason: RetryEvent['reason'], status: number | undefined): void {
    const { call, o } = run;
    const event: RetryEvent = {
      method: call.method,
      path: call.logPath,
      route: call.route,
      attempt: run.attempt,
      delayMs,
      reason,
    };
    if (status !== undefined) event.status = status;
    if (o?.requestId) event.requestId = o.requestId;
    run.ctx.log().debug(event, `retrying after ${reason}`);
    if (this.deps.emitter.has('retry')) this.deps.emitter.emit('retry', event);
  }
}

/** Marks an attempt that ended in a 429 wait: go again at once (the queue does the waiting). */
const RETRY_NOW: unique symbol = Symbol('retry now');

/** An attempt that failed; a class so that a parsed body can never be mistaken for it. */
class FailedAttempt {
  constructor(readonly failed: Failed) {}
}

function queuedCall(
  call: Call,
  o: RequestOptions | undefined,
  fallback: Logger,
  base: string,
): QueuedCall & ErrorContext {
  let logger: Logger | undefined;
  return {
    method: call.method,
    path: call.logPath,
    url: base + call.logPath,
    signal: o?.signal,
    log: () => {
      if (!logger) {
        const bindings: Record<string, unknown> = { method: call.method, path: call.logPath };
        if (o?.requestId !== undefined) bindings.requestId = o.requestId;
        logger = (o?.logger ?? fallback).child(bindings);
      }
      return logger;
    },
  };
}
