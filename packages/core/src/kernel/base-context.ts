import type { App, Logger } from '@boardbot/protocol';
import { BotStateError } from '../errors.js';
import type { BotRest, RequestOptions } from './ports.js';
import { currentScope, namedKey } from './scope.js';

/** What the runtime hands every context. */
export interface ContextDeps {
  app: App;
  rest: BotRest;
  /** The per-event child logger. */
  log: Logger;
  correlationId: string;
  signal: AbortSignal;
  /** The clock, in milliseconds. */
  now: () => number;
}

/** The parts every context shares. */
export abstract class BaseContextImpl {
  readonly app: App;
  readonly rest: BotRest;
  readonly log: Logger;
  readonly correlationId: string;
  readonly signal: AbortSignal;
  readonly requestOptions: RequestOptions;
  protected readonly now: () => number;

  /** @param deps - what the runtime provides */
  constructor(deps: ContextDeps) {
    this.app = deps.app;
    this.rest = deps.rest;
    this.log = deps.log;
    this.correlationId = deps.correlationId;
    this.signal = deps.signal;
    this.now = deps.now;
    // The correlation id follows the event into every REST call it causes (sent as X-Request-Id).
    this.requestOptions = { requestId: deps.correlationId, logger: deps.log };
  }

  idempotencyKey(name: string): string {
    const scope = currentScope();
    if (!scope) throw new BotStateError('ctx.idempotencyKey() works while the handler runs, not after it returned.');
    return namedKey(scope, name);
  }
}
