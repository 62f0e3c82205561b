import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestOptions } from './options.js';

/**
 * The keys of one unit of work's writes (a bot's handler run): its `n`-th write (each `POST` or
 * `PATCH`) carries `prefix + n`, `n` counting from `next`, so the same work done again sends the
 * same keys in the same order and the platform replays what it already wrote.
 */
export interface WriteKeys {
  readonly prefix: string;
  next: number;
}

/**
 * What every call made in one unit of work carries: its options (request id, logger, signal, trace
 * context) and the keys of its writes. It is data the client reads; the client calls nothing back.
 */
export interface CallScope {
  /** Options each call inherits; the call's own options win, and two signals both apply. */
  readonly options: RequestOptions;
  /** The keys of the scope's writes, taken in order. */
  readonly keys: WriteKeys;
}

// One storage for every client of the process: a call made in the scope's async flow, through any
// client (one the caller was handed, one a library holds), carries it.
const scopes = new AsyncLocalStorage<CallScope>();

/**
 * Runs `fn` (and all it awaits or schedules) in `scope`: the calls of every `RestClient` made there
 * carry its options and, for a write, its next key.
 * @param scope - the unit of work's options and keys
 * @param fn - the work
 */
export function withCallScope<T>(scope: CallScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The scope the caller runs in, if any. */
export function currentCallScope(): CallScope | undefined {
  return scopes.getStore();
}
