import { createHash } from 'node:crypto';
import type { Logger } from '@boardbot/protocol';
import { WriteDroppedError } from '../errors.js';
import type { EventMeta, EventOrigin } from './event.js';
import type { DispatchOutcome } from './outcome.js';
import type { RunKey } from './run-key.js';

/** A write a handler makes: a context method, or a call on `ctx.rest`. */
export type WriteOperation = 'reply' | 'followUp' | 'send' | 'edit' | 'delete' | 'stream' | 'rest';

/** What a handler run is made from. */
export interface RunSeed {
  /** The event (or tick) it runs for. */
  event: EventMeta;
  /** `Class.method` of the handler (or `/command` when no handler matched). */
  handler: string;
  /** Follows the run into its REST calls (`X-Request-Id`) and log lines. */
  correlationId: string;
  /** The run's child logger. */
  log: Logger;
}

/**
 * One run of one handler for one event: what every run has (its event's ids and origin, its
 * handler, its logger, the keys of its writes, its abort signal), and the state features keep on it
 * under their own {@link RunKey}. A run is abandoned when it outlives `handlerTimeoutMs` or the
 * bot's `shutdownTimeoutMs`, or when a burst's newer message replaces it: its signal is aborted, and
 * the handler's own writes are refused from then on.
 */
export class HandlerRun {
  /** The gateway event id, `backfill:<message id>` or `tick:<schedule>@<time>` (for logs). */
  readonly eventId: string;
  /** Where the event comes from. */
  readonly origin: EventOrigin;
  /** What the run's idempotency keys derive from (see `keyBasis` in `dispatch/key-basis.ts`). */
  readonly keyBasis: string;
  /** Whether the event may have been handled by an earlier process (delivered again after a restart). */
  readonly replayed: boolean;
  /** Where the event's dispatch collects how its runs ended; none for a tick. */
  readonly outcome: DispatchOutcome | undefined;
  readonly handler: string;
  readonly correlationId: string;
  readonly log: Logger;
  /** How many write keys the run gave out. */
  private written = 0;
  /** `bb1:<key basis>:<handler tag>:`, made at the first write. */
  private prefix: string | undefined = undefined;
  // Made at the first read of `signal` (most handlers never read it): the signal is the costly part
  // of a run. `reason` is set when the run is abandoned, whether or not the signal exists yet.
  private controller: AbortController | undefined = undefined;
  private reason: Error | undefined = undefined;
  // Every field is made with the run and stored by its own methods: on Node 20, a hook closure stored
  // on the run from outside made each event cost about 45 % more CPU (core's README, issue 41).
  private abandonHook: (() => void) | undefined = undefined;
  /** The features' state, by key (see {@link RunKey}); made at the first `set`. */
  private values: unknown[] | undefined = undefined;

  /** @param seed - the event, handler, ids and logger of the run */
  constructor(seed: RunSeed) {
    const { event } = seed;
    this.eventId = event.id;
    this.origin = event.origin;
    this.keyBasis = event.keyBasis;
    this.replayed = event.replayed;
    this.outcome = event.outcome;
    this.handler = seed.handler;
    this.correlationId = seed.correlationId;
    this.log = seed.log;
  }

  /**
   * The state a feature keeps on the run under `key`; undefined until it is set.
   * @param key - the feature's key
   */
  get<T>(key: RunKey<T>): T | undefined {
    return this.values?.[key.index] as T | undefined;
  }

  /**
   * Keeps a feature's state on the run.
   * @param key - the feature's key
   * @param value - the state
   */
  set<T>(key: RunKey<T>, value: T): void {
    this.values ??= [];
    this.values[key.index] = value;
  }

  /**
   * The key of the run's next write, `bb1:<key basis>:<handler tag>:<n>`: each
   * write without a key of its own takes one when it is made, so the same event handled again sends
   * the same keys in the same order.
   */
  nextWriteKey(): string {
    this.prefix ??= writeKey(this, '');
    return `${this.prefix}${this.written++}`;
  }

  /** Aborted (with the reason) when the run is abandoned; the handler's `ctx.signal`. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Why the run was abandoned; undefined while it was not. */
  get abandonReason(): Error | undefined {
    return this.reason;
  }

  /** Whether the run was abandoned. */
  get abandoned(): boolean {
    return this.reason !== undefined;
  }

  /**
   * Gives up on the run: aborts its signal with `reason`, and tells its supervision. Only the first
   * call counts.
   * @param reason - a `HandlerTimeoutError`, a `ShutdownTimeoutError` or a `RunCancelledError`
   */
  abandon(reason: Error): void {
    if (this.abandoned) return;
    this.reason = reason;
    this.controller?.abort(reason);
    this.abandonHook?.();
  }

  /**
   * Set by supervision: what {@link HandlerRun.abandon} wakes.
   * @param hook - hears the abandonment once
   */
  onAbandoned(hook: () => void): void {
    this.abandonHook = hook;
  }

  /**
   * Refuses a write of the handler's own after its run was abandoned (the runtime has apologised
   * for it already: a late reply would follow the apology). Logged with the handler's name.
   * @param operation - the context method that writes
   */
  refuseWrite(operation: WriteOperation): never {
    this.log.warn(
      { handler: this.handler, write: operation },
      'write dropped: the handler was abandoned (timeout or shutdown)',
    );
    throw new WriteDroppedError(this.handler, operation, this.reason);
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
export function writeKey(run: Pick<HandlerRun, 'keyBasis' | 'handler'>, n: number | ''): string {
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
export function namedKey(run: Pick<HandlerRun, 'keyBasis' | 'handler'>, name: string): string {
  return `bb1:${run.keyBasis}:${tag(run.handler)}:n:${PLAIN_NAME.test(name) ? name : tag(name)}`;
}
