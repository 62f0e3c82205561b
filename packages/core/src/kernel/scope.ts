import { createHash } from 'node:crypto';
import type { Logger } from '@boardbot/protocol';
import { type CallScope, currentCallScope, type WriteKeys, withCallScope } from '@boardbot/rest';
import { type Context, context as otelContext, ROOT_CONTEXT } from '@opentelemetry/api';
import { WriteDroppedError } from '../errors.js';
import { contextManaged } from './otel-context.js';
import type { DispatchOutcome } from './outcome.js';
import { withRunBaggage } from './run-baggage.js';

/** A write a handler makes: a context method, or a call on `ctx.rest`. */
export type WriteOperation = 'reply' | 'followUp' | 'send' | 'edit' | 'delete' | 'stream' | 'rest';

/** What a handler run is made from. */
export interface RunSeed {
  /** The gateway event id, or `backfill:<message id>` for a message read back after a gap (for logs). */
  eventId: string;
  /**
   * What the run's idempotency keys are derived from: the message id for a `message.create`, live or
   * backfilled, else the gateway event id (see `keyBasis` in `dispatch/key-basis.ts`).
   */
  keyBasis: string;
  /** `Class.method` of the handler (or `/command` when no handler matched). */
  handler: string;
  /** Follows the run into its REST calls (`X-Request-Id`) and log lines. */
  correlationId: string;
  /** The run's child logger. */
  log: Logger;
  /** Whether the event may have been handled by an earlier process (delivered again after a restart). */
  replayed: boolean;
  /** The event's trace context (OpenTelemetry), when the bot traces: the handler's span is its child. */
  trace?: Context | undefined;
  /** Where the event's dispatch collects how its runs ended; none for a scheduled tick. */
  outcome?: DispatchOutcome | undefined;
}

// The run travels in `@boardbot/rest`'s call scope, the one AsyncLocalStorage of the process: every
// REST call made anywhere inside a handler learns its run from there, without the author passing
// anything. A second storage of the runtime's own would double what Node 20 does for every promise
// made during a run (each enabled storage propagates its store to each new promise).

/** The run the caller's async flow belongs to, and whether the runtime (not the handler) is writing for it. */
function currentFrame(): RunCalls | undefined {
  const scope = currentCallScope();
  return scope instanceof RunCalls ? scope : undefined;
}

/**
 * One run of one handler for one event, carried through async context: its ids, its abort signal,
 * the ordinals of its writes (for their idempotency keys), and whether it may still write. A run is
 * abandoned when it outlives `handlerTimeoutMs` or the bot's `shutdownTimeoutMs`: its signal is
 * aborted and, from then on, {@link HandlerRun.admitWrite} refuses its writes.
 */
export class HandlerRun implements RunSeed {
  readonly eventId: string;
  readonly keyBasis: string;
  readonly handler: string;
  readonly correlationId: string;
  readonly log: Logger;
  readonly replayed: boolean;
  readonly outcome: DispatchOutcome | undefined;
  /**
   * The trace context the run's REST calls are children of, and whose baggage they send: the
   * event's, until the runtime starts the handler's span and sets it here.
   */
  traceContext: Context | undefined;
  /**
   * The locale `ctx.t` speaks in this run: set by the policy chain before the handler's guards when
   * the bot has a translator (`@boardbot/core/i18n`), and by `setLocale`; undefined: the default.
   */
  locale: string | undefined;
  /**
   * Settles with `'abandoned'` when the run is abandoned, and never if it is not: what supervision
   * races the handler against (cheaper than an `abort` listener on the signal for every run).
   */
  readonly abandonment: Promise<'abandoned'>;
  // The two hooks below are stored by the run's own methods, not assigned from outside the class: on
  // Node 20, a hook closure stored on the run by supervise() or the chain directly made each event
  // cost about 45 % more CPU (more of every scavenge survived; see core's README, issue 41).
  private deadlineHook: ((ms: number) => void) | undefined;
  private slotHook: (() => void) | undefined;
  private callTrace: Context | undefined;
  // Made at the first read of `signal` (most handlers never read it): the signal is the costly part
  // of a run. `reason` is set when the run is abandoned, whether or not the signal exists yet.
  private controller: AbortController | undefined;
  private reason: Error | undefined;
  // Made at the first read of `stopSignal` too (only streams read it); `interrupted` remembers an
  // earlier `interrupt()`.
  private stopping: AbortController | undefined;
  private interrupted = false;
  private markAbandoned!: (value: 'abandoned') => void;
  /** The keys of the run's writes, `bb1:<key basis>:<handler tag>:<n>` (see {@link writeKey}), in order. */
  private readonly keys: WriteKeys;
  /** What the run's REST calls carry: the handler's (with its signal), and the runtime's answers' (without). */
  readonly calls: { handler: CallScope; runtime: CallScope };

  /** @param seed - the event, handler, ids and logger of the run */
  constructor(seed: RunSeed) {
    this.eventId = seed.eventId;
    this.keyBasis = seed.keyBasis;
    this.handler = seed.handler;
    this.correlationId = seed.correlationId;
    this.log = seed.log;
    this.replayed = seed.replayed;
    this.outcome = seed.outcome;
    this.traceContext = seed.trace;
    this.locale = undefined;
    this.abandonment = new Promise((resolve) => {
      this.markAbandoned = resolve;
    });
    this.keys = { prefix: writeKey(seed, ''), next: 0 };
    this.calls = { handler: new RunCalls(this, this.keys, false), runtime: new RunCalls(this, this.keys, true) };
  }

  /**
   * The trace context the run's REST calls carry: its own, with the handler and the event named in
   * the baggage. Built at the first call (a handler that makes none pays nothing for it).
   */
  callTraceContext(): Context {
    this.callTrace ??= withRunBaggage(this.traceContext ?? ROOT_CONTEXT, this.handler, this.eventId);
    return this.callTrace;
  }

  /** Aborted (with the reason) when the run is abandoned; the handler's `ctx.signal`. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /**
   * Lets the run go on for `ms` more milliseconds from now if its deadline (`handlerTimeoutMs`) is
   * sooner: a streamed answer asks for its own maximum duration. Nothing when nothing supervises it.
   * @param ms - the time the run needs from now
   */
  extendDeadline(ms: number): void {
    this.deadlineHook?.(ms);
  }

  /**
   * Set by supervision: how {@link HandlerRun.extendDeadline} moves the run's deadline.
   * @param move - moves it to `ms` from now, if later
   */
  supervisedBy(move: (ms: number) => void): void {
    this.deadlineHook = move;
  }

  /**
   * Aborted when the bot begins to stop (`stop()`) while the run is going: its streamed answers end
   * at once, marked interrupted, and leave the event to the next start. Other handlers ignore it.
   */
  get stopSignal(): AbortSignal {
    this.stopping ??= new AbortController();
    if (this.interrupted && !this.stopping.signal.aborted) this.stopping.abort();
    return this.stopping.signal;
  }

  /** Tells the run the bot is stopping (see {@link HandlerRun.stopSignal}). Only the first call counts. */
  interrupt(): void {
    if (this.interrupted) return;
    this.interrupted = true;
    this.stopping?.abort();
  }

  /**
   * Hands back the run's ordering slot and its worker while the run goes on: its event's dispatch
   * returns (the board's next events may run), and the event stays unfinished (below the resume
   * point, unacknowledged by a replica) until the run ends. A streamed answer calls it after its
   * first post. Only the first call counts; nothing when nothing runs the run in a slot.
   */
  releaseSlot(): void {
    const hook = this.slotHook;
    this.slotHook = undefined;
    hook?.();
  }

  /**
   * Set by the policy chain: what {@link HandlerRun.releaseSlot} does, at its first call.
   * @param hook - hands the slot back
   */
  onSlotReleased(hook: () => void): void {
    this.slotHook = hook;
  }

  /** Whether the run was abandoned. */
  get abandoned(): boolean {
    return this.reason !== undefined;
  }

  /**
   * Gives up on the run: aborts its signal with `reason`. Only the first call counts.
   * @param reason - a `HandlerTimeoutError` or a `ShutdownTimeoutError`
   */
  abandon(reason: Error): void {
    if (this.abandoned) return;
    this.reason = reason;
    this.controller?.abort(reason);
    this.markAbandoned('abandoned');
  }

  /** Runs `fn` (and all it awaits or schedules) as this run: the handler's own flow. */
  enter<T>(fn: () => T): T {
    const trace = this.traceContext;
    // OpenTelemetry's own context follows too, for the libraries a handler calls that read it (it is
    // the API's context manager, the author's SDK's choice: nothing to enter without one).
    const inner = trace === undefined || !contextManaged() ? fn : () => otelContext.with(trace, fn);
    return withCallScope(this.calls.handler, inner);
  }

  /**
   * Runs `fn` as this run unless the caller already is in it (as the handler or as the runtime), so a
   * context used from elsewhere still writes with its own run's keys.
   */
  within<T>(fn: () => T): T {
    return currentFrame()?.run === this ? fn() : this.enter(fn);
  }

  /**
   * Runs the runtime's own answer for this run (an unknown command's reply, the error hooks, the
   * apology): its writes go out even though the run was abandoned, and keep counting the run's
   * ordinals, while the handler's own late writes, made in its flow at the same time, are dropped.
   * @param answer - the runtime's answer
   */
  answerAsRuntime<T>(answer: () => Promise<T>): Promise<T> {
    return withCallScope(this.calls.runtime, answer);
  }

  /**
   * The one place that decides whether a write made on behalf of this run may go out: not once the
   * run was abandoned, since the runtime has already apologised for it (a late reply would follow
   * the apology), unless the runtime itself is answering. A refused write is logged with the
   * handler's name and throws `WriteDroppedError`, so the handler does not go on as if it was sent.
   *
   * @param operation - the context method that writes, or `rest` for a call on `ctx.rest`
   * @throws WriteDroppedError when the handler's run was abandoned
   */
  admitWrite(operation: WriteOperation): void {
    if (!this.abandoned || currentFrame()?.runtime === true) return;
    this.log.warn(
      { handler: this.handler, write: operation },
      'write dropped: the handler was abandoned (timeout or shutdown)',
    );
    throw new WriteDroppedError(this.handler, operation, this.signal.reason);
  }
}

// Every write of a run hashes its handler's label: the labels are few (the bot's handlers, and the
// names of commands it has none for), so each is hashed once. Bounded all the same, for a platform
// that would send endless unknown command names.
const tags = new Map<string, string>();
const MAX_TAGS = 1024;

/** A short, stable, header-safe tag of a handler label (labels may hold any identifier character). */
function tag(text: string): string {
  let value = tags.get(text);
  if (value === undefined) {
    value = createHash('sha256').update(text).digest('base64url').slice(0, 10);
    if (tags.size >= MAX_TAGS) tags.clear();
    tags.set(text, value);
  }
  return value;
}

/**
 * The `Idempotency-Key` of a run's `n`-th write, `bb1:<key basis>:<handler tag>:<n>`: derived from
 * the event (its message id for a `message.create`, else its event id) and the handler, so a run of
 * the same event after a restart, or of the same message read back by a backfill, sends the same
 * keys in the same order and the platform replays what was already written instead of writing it
 * twice.
 *
 * @param run - the run
 * @param n - the write's ordinal in the run, from 0 (`''`: the keys' common prefix)
 */
export function writeKey(run: Pick<RunSeed, 'keyBasis' | 'handler'>, n: number | ''): string {
  return `bb1:${run.keyBasis}:${tag(run.handler)}:${n}`;
}

const PLAIN_NAME = /^[\x21-\x7E]{1,64}$/;

/**
 * A key of the same kind for a side effect outside the platform (`ctx.idempotencyKey(name)`): the
 * same event, handler and name give the same key on every run.
 *
 * @param run - the run
 * @param name - names the effect within the run (e.g. `charge`)
 */
export function namedKey(run: Pick<RunSeed, 'keyBasis' | 'handler'>, name: string): string {
  return `bb1:${run.keyBasis}:${tag(run.handler)}:n:${PLAIN_NAME.test(name) ? name : tag(name)}`;
}

/**
 * The REST calls of a run, as `@boardbot/rest` reads them ({@link CallScope}): its correlation id,
 * logger and trace context, its abort signal (not for the runtime's own answers, which go out after
 * an abandonment), and its write keys. Built on the first call: a run that makes none pays nothing.
 * It is also what async context carries for the run (see {@link currentFrame}): the handler's flow
 * runs in the signalled one, the runtime's own answers in the other.
 */
class RunCalls implements CallScope {
  private built: CallScope['options'] | undefined;

  /**
   * @param run - the run
   * @param keys - its write keys
   * @param runtime - whether the runtime (not the handler) writes in this scope: its answers go out
   * after an abandonment, without the run's signal
   */
  constructor(
    readonly run: HandlerRun,
    readonly keys: WriteKeys,
    readonly runtime: boolean,
  ) {}

  get options(): CallScope['options'] {
    this.built ??= {
      requestId: this.run.correlationId,
      logger: this.run.log,
      ...(this.runtime ? {} : { signal: this.run.signal }),
      traceContext: this.run.callTraceContext(),
    };
    return this.built;
  }
}
