import type { App, Logger } from '@boardbot/protocol';
import type { Clock } from './clock.js';
import type { TranslateValues } from './context.js';
import type { BotRest, RequestOptions } from './ports.js';
import { type HandlerRun, namedKey, type WriteOperation } from './scope.js';
import type { RunSubject, Scoped } from './scoped.js';
import type { Services } from './services.js';
import { englishText, TRANSLATOR } from './translate.js';

/** What the runtime hands every context. */
export interface ContextDeps {
  app: App;
  rest: BotRest;
  /** The handler run the context belongs to: its logger, correlation id, signal, write keys, and whether it may still write. */
  run: HandlerRun;
  /** The clock, in milliseconds. */
  now: () => number;
  /** The runtime's clock, for the waits a context makes (a streamed answer's throttle and timeouts). */
  clock: Clock;
  /** The bot's services (session store, claims...), for what `ctx.session()` opens. */
  services: Services;
}

/** The parts every context shares. */
export abstract class BaseContextImpl {
  readonly app: App;
  readonly rest: BotRest;
  readonly log: Logger;
  readonly correlationId: string;
  readonly requestOptions: RequestOptions;
  protected readonly now: () => number;
  protected readonly run: HandlerRun;
  protected readonly clock: Clock;
  protected readonly services: Services;

  /** @param deps - what the runtime provides */
  constructor(deps: ContextDeps) {
    this.app = deps.app;
    this.rest = deps.rest;
    this.log = deps.run.log;
    this.correlationId = deps.run.correlationId;
    this.run = deps.run;
    this.now = deps.now;
    this.clock = deps.clock;
    this.services = deps.services;
    // The correlation id follows the event into every REST call it causes (sent as X-Request-Id).
    this.requestOptions = { requestId: this.correlationId, logger: this.log };
  }

  session<H>(definition: Scoped<H>): H {
    const { app, services, run, log, now } = this;
    return definition.open({ ...this.subject(), app, services, run, log, now });
  }

  /** Aborted when the run is abandoned; read from the run, which makes it only when asked. */
  get signal(): AbortSignal {
    return this.run.signal;
  }

  get locale(): string {
    return this.run.locale ?? this.services.find(TRANSLATOR)?.defaultLocale ?? 'en';
  }

  t(key: string, values?: TranslateValues): string {
    const translator = this.services.find(TRANSLATOR);
    return translator ? translator.t(this.locale, key, values) : englishText(key, values);
  }

  /**
   * The run and subject behind a context, for the runtime and `@boardbot/core/i18n` (which set and
   * read the run's locale); not for handlers.
   */
  static internals(ctx: BaseContextImpl): { run: HandlerRun; subject: RunSubject; services: Services } {
    return { run: ctx.run, subject: ctx.subject(), services: ctx.services };
  }

  /** The person and board this context acts for (none, unless the kind of context knows them). */
  protected subject(): RunSubject {
    return { userId: undefined, boardId: undefined };
  }

  idempotencyKey(name: string): string {
    return namedKey(this.run, name);
  }

  /**
   * Makes one write of the handler: refused once its run was abandoned (see
   * `HandlerRun.admitWrite`), else sent as the run, so it carries the run's next idempotency key.
   * @param operation - the context method that writes
   * @param send - the REST call
   */
  protected write<T>(operation: WriteOperation, send: () => Promise<T>): Promise<T> {
    this.run.admitWrite(operation);
    return this.run.within(send);
  }
}
