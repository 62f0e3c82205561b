import type { CallCarrier } from '@boardbot/rest';
import { type Context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { RunVoice } from '../kernel/base-context.js';
import type { BotRest, RequestOptions } from '../kernel/ports.js';
import type { HandlerRun } from '../kernel/run.js';
import { withRunBaggage } from '../kernel/run-baggage.js';
import { TRACE } from '../telemetry/telemetry.js';

/**
 * The REST calls of one run, as one of its voices (the handler's, or the runtime's): a client made
 * for the run from the bot's client (`forWork`), whose calls carry the run's correlation id,
 * logger and trace context (with the handler and the event in its baggage), the handler's abort
 * signal (not the runtime's answers, which go out after an abandonment), and each write the run's
 * next key. Both voices of a run count its keys together. Built at the first call: a run that makes
 * none pays nothing for it.
 */
export class RunCalls implements RunVoice, CallCarrier {
  private client: BotRest | undefined = undefined;
  private built: RequestOptions | undefined = undefined;

  /**
   * @param run - the run
   * @param bot - the bot's REST client
   * @param runtime - whether the runtime (not the handler) writes through it
   * @param trace - the event's trace context, until the run has its own
   */
  constructor(
    private readonly run: HandlerRun,
    private readonly bot: BotRest,
    readonly runtime: boolean,
    private readonly trace: Context | undefined,
  ) {}

  get rest(): BotRest {
    this.client ??= this.bot.forWork(this);
    return this.client;
  }

  options(): RequestOptions {
    if (this.built === undefined) {
      const { run } = this;
      const trace = run.get(TRACE) ?? this.trace ?? ROOT_CONTEXT;
      this.built = {
        requestId: run.correlationId,
        logger: run.log,
        ...(this.runtime ? {} : { signal: run.signal }),
        traceContext: withRunBaggage(trace, run.handler, run.eventId),
      };
    }
    return this.built;
  }

  nextWriteKey(): string {
    return this.run.nextWriteKey();
  }
}
