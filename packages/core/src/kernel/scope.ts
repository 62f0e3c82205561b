import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Logger } from '@boardbot/protocol';

/**
 * One handler run, carried through async context: everything a REST call made anywhere inside the
 * handler needs to know about the run without the author passing it (the bot's REST client reads it
 * through `callDefaults`).
 */
export interface HandlerScope {
  /** The gateway event id, or `backfill:<message id>` for a message read back after a gap. */
  readonly eventId: string;
  /** `Class.method` of the handler. */
  readonly handler: string;
  /** Follows the run into its REST calls (`X-Request-Id`) and log lines. */
  readonly correlationId: string;
  /** The run's child logger. */
  readonly log: Logger;
  /** Aborted when the handler runs past its timeout (or the bot gives up on it at shutdown). */
  readonly signal: AbortSignal;
  /** Whether the event may have been handled by an earlier process (delivered again after a restart). */
  readonly replayed: boolean;
  /** Takes the ordinal of the run's next write (0, 1, 2...), for its `Idempotency-Key`. */
  readonly nextWrite: () => number;
}

/** What a run's scope is made from. */
export interface ScopeSeed {
  eventId: string;
  handler: string;
  correlationId: string;
  log: Logger;
  signal: AbortSignal;
  replayed: boolean;
}

/** A new run's scope, its write ordinals counted from 0. @param seed - the run */
export function newScope(seed: ScopeSeed): HandlerScope {
  let writes = 0;
  return { ...seed, nextWrite: () => writes++ };
}

const storage = new AsyncLocalStorage<HandlerScope>();

/** The scope of the handler run the caller is in, if any. */
export function currentScope(): HandlerScope | undefined {
  return storage.getStore();
}

/**
 * Runs `fn` (and everything it awaits or schedules) inside `scope`.
 *
 * @param scope - the run
 * @param fn - the work
 */
export function runInScope<T>(scope: HandlerScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** A short, stable, header-safe tag of a handler label (labels may hold any identifier character). */
function tag(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 10);
}

/**
 * The `Idempotency-Key` of a run's `n`-th write: derived from the event and the handler, so a run
 * of the same event after a restart sends the same keys in the same order and the platform replays
 * what was already written instead of writing it twice.
 *
 * @param scope - the run
 * @param n - the write's ordinal in the run, from 0
 */
export function writeKey(scope: Pick<HandlerScope, 'eventId' | 'handler'>, n: number): string {
  return `bb1:${scope.eventId}:${tag(scope.handler)}:${n}`;
}

/**
 * The options a REST call inherits from the handler run it is made in (the bot's REST client takes
 * this as `callDefaults`): the correlation id, the logger, the abort signal and, for a write, the
 * `Idempotency-Key` of its ordinal. A write after the run's signal was aborted (it timed out) is
 * dropped, and said so: the REST client refuses a call whose signal is aborted.
 *
 * @param call - whether the call is a write
 */
export function handlerCallOptions(call: {
  idempotent: boolean;
  method: string;
  path: string;
}): { requestId: string; logger: Logger; signal: AbortSignal; idempotencyKey?: string } | undefined {
  const scope = storage.getStore();
  if (scope === undefined) return undefined;
  const options = { requestId: scope.correlationId, logger: scope.log, signal: scope.signal };
  if (scope.signal.aborted && call.method !== 'GET') {
    scope.log.warn(
      { handler: scope.handler, method: call.method, path: call.path },
      'write dropped: the handler ran past its timeout',
    );
  }
  if (!call.idempotent) return options;
  return { ...options, idempotencyKey: writeKey(scope, scope.nextWrite()) };
}

const PLAIN_NAME = /^[\x21-\x7E]{1,64}$/;

/**
 * A key of the same kind for a side effect outside the platform (`ctx.idempotencyKey(name)`): the
 * same event, handler and name give the same key on every run.
 *
 * @param scope - the run
 * @param name - names the effect within the run (e.g. `charge`)
 */
export function namedKey(scope: Pick<HandlerScope, 'eventId' | 'handler'>, name: string): string {
  return `bb1:${scope.eventId}:${tag(scope.handler)}:n:${PLAIN_NAME.test(name) ? name : tag(name)}`;
}
