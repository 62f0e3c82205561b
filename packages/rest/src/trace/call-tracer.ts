import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { Call } from '../request/call.js';
import { VERSION } from '../version.js';
import { formatBaggage, formatTraceparent } from './trace-headers.js';

type Headers = Record<string, string>;

/** Writes a header into the plain object `propagation.inject` fills. */
const setter = {
  set(carrier: Headers, key: string, value: string): void {
    carrier[key] = value;
  },
};

/**
 * Makes the span of each REST call, a child of the caller's trace context (the handler's, passed as
 * `RequestOptions.traceContext`, else OpenTelemetry's active context), and the W3C headers that
 * carry it. Only `@opentelemetry/api` is used: without an SDK registered the spans are the API's
 * non-recording ones and cost next to nothing.
 */
export class CallTracer {
  private readonly tracer: Tracer | undefined;

  /** @param provider - where spans come from, or `false` for none (no span, no trace header) */
  constructor(provider: TracerProvider | false) {
    this.tracer = provider === false ? undefined : provider.getTracer('@boardbot/rest', VERSION);
  }

  /**
   * Starts the span of one call and writes the headers that carry it (`traceparent`, and `baggage`
   * when the context carries any) into the call's headers.
   * @param call - the call
   * @param parent - the trace context it is made in, if the caller gave one
   * @param headers - the call's own headers (a fresh object), written to
   * @returns the span, or undefined when tracing is off
   */
  start(call: Call, parent: Context | undefined, headers: Headers): Span | undefined {
    if (!this.tracer) return undefined;
    const base = parent ?? context.active();
    const span = this.tracer.startSpan(
      `${call.method} ${call.route}`,
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': call.method, 'url.template': call.route } },
      base,
    );
    const ctx = trace.setSpan(base, span);
    // The propagators the author registered come first; the W3C headers are written here when none
    // is (the API alone registers none), so the server always learns the trace and the baggage.
    propagation.inject(ctx, headers, setter);
    if (headers.traceparent === undefined) {
      const traceparent = formatTraceparent(span.spanContext());
      if (traceparent !== undefined) headers.traceparent = traceparent;
    }
    if (headers.baggage === undefined) {
      const baggage = formatBaggage(propagation.getBaggage(ctx));
      if (baggage !== undefined) headers.baggage = baggage;
    }
    return span;
  }
}

/**
 * Ends a call's span with its outcome.
 * @param span - the span, if tracing is on
 * @param status - the last answer's status, if one arrived
 * @param attempts - how many attempts were sent
 * @param error - why the call failed, if it did
 */
export function endCallSpan(
  span: Span | undefined,
  status: number | undefined,
  attempts: number,
  error?: unknown,
): void {
  if (!span) return;
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (attempts > 1) span.setAttribute('http.request.resend_count', attempts - 1);
  if (error !== undefined) {
    const e = error as { code?: unknown; message?: unknown };
    if (typeof e.code === 'string') span.setAttribute('error.type', e.code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: typeof e.message === 'string' ? e.message : String(error) });
  }
  span.end();
}
