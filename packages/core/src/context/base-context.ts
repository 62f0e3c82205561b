import type { App, Logger } from '@boardbot/protocol';
import type { HandlerRun, WriteOperation } from '../dispatch/handler-run.js';
import type { BotRest, RequestOptions } from '../runtime/ports.js';

/** What the runtime hands every context. */
export interface ContextDeps {
  app: App;
  rest: BotRest;
  /** The per-event child logger. */
  log: Logger;
  correlationId: string;
  /** The handler run the context belongs to: its signal, and whether it may still write. */
  run: HandlerRun;
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
  private readonly run: HandlerRun;

  /** @param deps - what the runtime provides */
  constructor(deps: ContextDeps) {
    this.app = deps.app;
    this.rest = deps.rest;
    this.log = deps.log;
    this.correlationId = deps.correlationId;
    this.run = deps.run;
    this.signal = deps.run.signal;
    this.now = deps.now;
    // The correlation id follows the event into every REST call it causes (sent as X-Request-Id).
    this.requestOptions = { requestId: deps.correlationId, logger: deps.log };
  }

  /**
   * Lets a write go out, or refuses it once the handler's run was abandoned (see
   * `HandlerRun.admitWrite`); returns the options to send it with.
   * @param operation - the context method that writes
   */
  protected admit(operation: WriteOperation): RequestOptions {
    this.run.admitWrite(operation);
    return this.requestOptions;
  }
}
