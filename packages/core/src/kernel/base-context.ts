import type { App, Logger } from '@boardbot/protocol';
import type { Clock } from './clock.js';
import type { TranslateValues } from './context.js';
import type { BotRest, RequestOptions } from './ports.js';
import { type HandlerRun, namedKey, type WriteOperation } from './run.js';
import type { RunSubject, Scoped } from './scoped.js';
import type { Services } from './services.js';
import { runLocale, runText } from './translate.js';

/**
 * Who writes through a context, and with which REST client: the handler (the run's client, with its
 * signal), or the runtime answering for the run (its error hooks, the apology, an unknown command:
 * a client of the same run without the signal, whose writes go out after an abandonment).
 */
export interface RunVoice {
  /** The run's REST client: its calls carry the run's request id, signal, trace and write keys. */
  readonly rest: BotRest;
  /** Whether the runtime, not the handler, is writing. */
  readonly runtime: boolean;
}

/** What the runtime hands every context. */
export interface ContextDeps {
  app: App;
  /** The handler run the context belongs to: its logger, correlation id, signal and write keys. */
  run: HandlerRun;
  /** How the context writes (see {@link RunVoice}). */
  voice: RunVoice;
  /** The runtime's clock, for the times and waits a context reads (a streamed answer's throttle). */
  clock: Clock;
  /** The bot's services (session store, claims...), for what `ctx.session()` opens. */
  services: Services;
}

/**
 * The parts every context shares: a kind of handler (core's, or a plugin's) extends it with what
 * its handlers are given. Its writes go through {@link ContextBase.write}: refused once the
 * handler's run was abandoned, sent through the run's client otherwise.
 */
export abstract class ContextBase {
  readonly app: App;
  readonly log: Logger;
  readonly correlationId: string;
  readonly requestOptions: RequestOptions;
  protected readonly run: HandlerRun;
  protected readonly clock: Clock;
  protected readonly services: Services;
  protected readonly voice: RunVoice;

  /** @param deps - what the runtime provides */
  constructor(deps: ContextDeps) {
    this.app = deps.app;
    this.log = deps.run.log;
    this.correlationId = deps.run.correlationId;
    this.run = deps.run;
    this.voice = deps.voice;
    this.clock = deps.clock;
    this.services = deps.services;
    // The correlation id follows the event into every REST call it causes (sent as X-Request-Id).
    this.requestOptions = { requestId: this.correlationId, logger: this.log };
  }

  /** The runtime's clock, in milliseconds. */
  protected now(): number {
    return this.clock.now();
  }

  /** The run's REST client (the runtime's, in the runtime's view of the context). */
  get rest(): BotRest {
    return this.voice.rest;
  }

  session<H>(definition: Scoped<H>): H {
    const { app, services, run, log } = this;
    return definition.open({ ...this.subject(), app, services, run, log, now: () => this.clock.now() });
  }

  /** Aborted when the run is abandoned; read from the run, which makes it only when asked. */
  get signal(): AbortSignal {
    return this.run.signal;
  }

  get locale(): string {
    return runLocale(this.run, this.services);
  }

  t(key: string, values?: TranslateValues): string {
    return runText(this.run, this.services, key, values);
  }

  idempotencyKey(name: string): string {
    return namedKey(this.run, name);
  }

  /**
   * The run and subject behind a context, for the runtime and `@boardbot/core/i18n` (which set and
   * read the run's locale), and what it was made from, for `@boardbot/core/agents` (a resumed turn's
   * context of the asking person, in the deciding run); not for handlers.
   */
  static internals(ctx: ContextBase): { run: HandlerRun; subject: RunSubject; services: Services; deps: ContextDeps } {
    const { app, run, voice, clock, services } = ctx;
    return { run, subject: ctx.subject(), services, deps: { app, run, voice, clock, services } };
  }

  /**
   * The runtime's view of a context, for its error hooks and its apology: the same context (what
   * it read, what it answered), whose writes go through `voice`, the runtime's. The handler keeps
   * its own context, so its late writes, made at the same time, are still refused.
   * @param ctx - the handler's context
   * @param voice - the runtime's voice of the run
   */
  static spokenBy<C extends object>(ctx: C, voice: RunVoice): C {
    return Object.create(ctx, { voice: { value: voice } });
  }

  /** The person and board this context acts for (none, unless the kind of context knows them). */
  protected subject(): RunSubject {
    return { userId: undefined, boardId: undefined };
  }

  /**
   * Makes one write: refused once the handler's run was abandoned (unless the runtime writes), else
   * sent; `send` writes through {@link ContextBase.rest}, which gives it the run's next key.
   * @param operation - the context method that writes
   * @param send - the REST call
   */
  protected write<T>(operation: WriteOperation, send: () => Promise<T>): Promise<T> {
    if (this.run.abandoned && !this.voice.runtime) this.run.refuseWrite(operation);
    return send();
  }
}
