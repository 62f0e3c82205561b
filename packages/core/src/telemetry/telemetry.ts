import { performance } from 'node:perf_hooks';
import {
  type Attributes,
  type Context,
  context,
  INVALID_TRACEID,
  ProxyTracerProvider,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { BotEvent, EventOrigin } from '../kernel/event.js';
import type { HandlerRun } from '../kernel/run.js';
import { RunKey } from '../kernel/run-key.js';
import { IDLE_RUN } from './idle-run.js';
import type { HandlerKind, HandlerOutcome, MetricsSink } from './metrics-sink.js';
import { withSpan } from './span-context.js';

/**
 * One event's trace. Its span starts when its dispatch begins, dated from the event's receipt: an
 * event waiting in the queue holds no span, so a deep queue keeps no span objects alive across
 * garbage collections (with an SDK, that lifetime cost more than the spans themselves).
 */
export interface EventTrace {
  /**
   * The event's dispatch begins: starts its span (from the receipt's time).
   * @returns the context its handlers' spans are children of; undefined when the bot does not trace
   *   (then there is no span, and `end` has nothing to do)
   */
  begin(): Context | undefined;
  /** Ends the event's span, once its handlers finished. */
  end(): void;
}

/** One handler run, observed: ended with its outcome. */
export interface HandlerTrace {
  /**
   * @param outcome - how the run ended
   * @param error - the failure, for the span
   */
  end(outcome: HandlerOutcome, error?: unknown): void;
}

/**
 * The trace context of a handler run (OpenTelemetry): its own span's, set when the run starts in a
 * recorded trace; the run's REST calls are its children and the handler runs in it.
 */
export const TRACE = new RunKey<Context>('trace context');

const UNTRACED: EventTrace = { begin: () => undefined, end: () => {} };

/** What the API's global provider delegates to while no SDK is registered (the API's no-op provider). */
const NO_SDK = new ProxyTracerProvider().getDelegate();

/**
 * Span names by event name and by handler label, made once: both sets are small and fixed (the
 * protocol's event names and `other`, the bot's handlers), and a name concatenated per event would be
 * an allocation per span.
 */
const eventSpanNames = new Map<string, string>();
const handlerSpanNames = new Map<string, string>();
function spanName(names: Map<string, string>, prefix: string, of: string): string {
  let name = names.get(of);
  if (name === undefined) {
    name = `${prefix} ${of}`;
    names.set(of, name);
  }
  return name;
}

const setter = {
  set(carrier: Record<string, string>, key: string, value: string): void {
    carrier[key] = value;
  },
};

/**
 * The bot's traces and the hooks of its metrics: one span per gateway event (from receipt to the end
 * of its dispatch), a child span per handler run, the parent of the REST calls it makes (which name
 * the handler in their baggage, see `withRunBaggage`). Depends on
 * `@opentelemetry/api` only: without an SDK registered the spans are non-recording.
 */
export class Telemetry {
  private readonly tracer: Tracer | undefined;
  /** The API's global provider, when spans come from it: it has an SDK only once one is registered. */
  private readonly global: ProxyTracerProvider | undefined;
  /** Set once the bot's health module loaded (`createBot({ health })`). */
  metrics: MetricsSink | undefined;

  /** @param provider - where spans come from, or `false` for none */
  constructor(provider: TracerProvider | false) {
    this.tracer = provider === false ? undefined : provider.getTracer('@boardbot/core');
    this.global = provider instanceof ProxyTracerProvider ? provider : undefined;
  }

  /**
   * The tracer, or undefined while its spans would be inert: tracing is off, or spans come from the
   * global provider and no SDK is registered yet (one registered later is used from the next event).
   */
  private live(): Tracer | undefined {
    return this.global?.getDelegate() === NO_SDK ? undefined : this.tracer;
  }

  /**
   * An event was received: counts it and starts its span.
   * @param event - the event
   * @param origin - where it comes from (a message read back after a gap has no gateway id to count)
   * @param carrier - the trace headers it came with from another process (replicas), if any
   */
  receive(event: BotEvent, origin: EventOrigin, carrier?: Readonly<Record<string, string>>): EventTrace {
    const name = event.unknown ? 'other' : event.name;
    this.metrics?.eventReceived(name, event.id === '' || origin !== 'live' ? undefined : event.id);
    const tracer = this.live();
    if (!tracer) return UNTRACED;
    const parent = carrier === undefined ? context.active() : propagation.extract(ROOT_CONTEXT, carrier);
    return new PendingEventTrace(tracer, name, event.id, parent);
  }

  /**
   * An event this replica reads from the gateway and passes on to the replicas (through Redis): a
   * short span of its receipt here, ended at once, whose headers the replica that handles the event
   * continues. Not counted as received: the replica that handles it counts it.
   * @param event - the event
   * @returns the W3C headers of the receipt span; empty when the bot does not trace
   */
  relay(event: BotEvent): Record<string, string> {
    const tracer = this.live();
    if (!tracer) return {};
    const name = event.unknown ? 'other' : event.name;
    const span = tracer.startSpan(`relay ${name}`, {
      kind: SpanKind.PRODUCER,
      attributes: { 'boardbot.event.name': name, 'boardbot.event.id': event.id },
    });
    if (inert(span)) return {};
    const headers: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), span), headers, setter);
    span.end();
    return headers;
  }

  /**
   * A handler run starts: its span, a child of the event's, becomes the run's trace context.
   * @param run - the run (its {@link TRACE} is set here)
   * @param ctx - the handler's context (its kind, board and command are read from it)
   * @param parent - the event's trace context, if traced
   */
  handler(run: HandlerRun, ctx: object, parent: Context | undefined): HandlerTrace {
    const tracer = this.tracer;
    const metrics = this.metrics;
    // A handler span is made in its event's trace, when that trace is recorded: an untraced event (no
    // SDK) has none to be part of, and under an event sampled out the run keeps the event's context,
    // which its REST calls still carry (as not sampled). The handler follows its event's sampling
    // decision, as a parent-based sampler (the SDK's default) would decide, without its cost.
    const traced = tracer !== undefined && parent !== undefined && trace.getSpan(parent)?.isRecording() === true;
    const started = performance.now();
    const { kind, boardId, command } = describe(ctx);
    let span: Span | undefined;
    if (traced) {
      // Every attribute known at the start is given at once: the SDK checks each call's attributes.
      const attributes = handlerAttributes(run, kind, boardId, command);
      span = tracer.startSpan(spanName(handlerSpanNames, 'handler', run.handler), { attributes }, parent);
      run.set(TRACE, withSpan(parent, span));
    }
    return {
      end: (outcome, error) => {
        const seconds = (performance.now() - started) / 1000;
        metrics?.handlerEnded(run.handler, kind, outcome, seconds);
        logHandled(run, kind, boardId, outcome, seconds);
        if (!span) return;
        span.setAttribute('boardbot.outcome', outcome);
        if (outcome === 'error' || outcome === 'timeout' || outcome === 'abandoned') {
          if (error instanceof Error) span.recordException(error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
        }
        span.end();
      },
    };
  }
}

/**
 * Whether a span records nothing and carries no trace to continue (what the API gives without an
 * SDK): putting it in a context would change nothing, so the context is left as it was.
 */
function inert(span: Span): boolean {
  // The API's non-recording span without a trace has the invalid (all zeros) trace id.
  return !span.isRecording() && span.spanContext().traceId === INVALID_TRACEID;
}

/** An event's span, started when its dispatch begins. */
class PendingEventTrace implements EventTrace {
  // The SDK reads a number no later than `performance.now()` as a time of this process's clock.
  private readonly receivedAt = performance.now();
  private span: Span | undefined;

  constructor(
    private readonly tracer: Tracer,
    private readonly name: string,
    private readonly id: string,
    private readonly parent: Context,
  ) {}

  begin(): Context | undefined {
    const span = this.tracer.startSpan(
      spanName(eventSpanNames, 'event', this.name),
      {
        kind: SpanKind.CONSUMER,
        startTime: this.receivedAt,
        attributes: { 'boardbot.event.name': this.name, 'boardbot.event.id': this.id },
      },
      this.parent,
    );
    // An inert event span (no SDK): its handlers make none either, and the context stays as it was.
    if (inert(span)) return undefined;
    this.span = span;
    return withSpan(this.parent, span);
  }

  end(): void {
    // Given a start time, the SDK would date the end by `Date.now()` (whole milliseconds): the end
    // is given on the same clock as the start instead.
    this.span?.end(performance.now());
    this.span = undefined;
  }
}

/**
 * The one `info` line of each handler run: which handler, where, how it ended and how long it took.
 * A message's log binds its `board_id` already; the other kinds get it here. A run that found nothing
 * to do ({@link IDLE_RUN}) and ended well is logged at debug: on a board with a
 * conversation, its listener hears every message, and most are no answer.
 */
function logHandled(
  run: HandlerRun,
  kind: HandlerKind,
  boardId: string | undefined,
  outcome: HandlerOutcome,
  seconds: number,
): void {
  const fields: Record<string, unknown> = { handler: run.handler, outcome, duration_ms: Math.round(seconds * 1000) };
  if (boardId !== undefined && kind !== 'message') fields.board_id = boardId;
  if (outcome === 'ok' && run.get(IDLE_RUN)) run.log.debug(fields, 'handled');
  else run.log.info(fields, 'handled');
}

function handlerAttributes(
  run: HandlerRun,
  kind: HandlerKind,
  boardId: string | undefined,
  command: string | undefined,
): Attributes {
  // The event's id is on the parent span; a replay is worth saying only when it is one.
  const attributes: Attributes = { 'boardbot.handler': run.handler, 'boardbot.handler.kind': kind };
  if (boardId !== undefined) attributes['boardbot.board_id'] = boardId;
  if (command !== undefined) attributes['boardbot.command'] = command;
  if (run.replayed) attributes['boardbot.replayed'] = true;
  return attributes;
}

/** The handler's kind, board and command, read from its context. */
function describe(ctx: object): { kind: HandlerKind; boardId: string | undefined; command: string | undefined } {
  const c = ctx as { boardId?: unknown; kind?: unknown; command?: { name?: unknown }; message?: unknown };
  const boardId = typeof c.boardId === 'string' ? c.boardId : undefined;
  // A command context, invoked as a slash command or as text.
  if (c.kind === 'command') {
    const name = c.command?.name;
    return { kind: 'command', boardId, command: typeof name === 'string' ? name : undefined };
  }
  return { kind: c.message !== undefined ? 'message' : 'event', boardId, command: undefined };
}
