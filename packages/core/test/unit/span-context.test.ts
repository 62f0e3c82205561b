import { createContextKey, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { withSpan } from '../../src/telemetry/span-context.js';

// The runtime's traced contexts are links to their parent rather than copies (issue 35): what the
// API, an SDK and the propagators read from them must be what `trace.setSpan` would have given.
describe('withSpan', () => {
  const tracer = new BasicTracerProvider().getTracer('test');
  const other = createContextKey('other');

  it("is the parent with the span set: the API's getSpan reads it, the parent's values stay", () => {
    const span = tracer.startSpan('event');
    const parent = ROOT_CONTEXT.setValue(other, 'kept');
    const ctx = withSpan(parent, span);
    expect(trace.getSpan(ctx)).toBe(span);
    expect(ctx.getValue(other)).toBe('kept');
    expect(trace.getSpan(parent)).toBeUndefined();
  });

  it('makes its children the span under it, and takes values set and deleted on it', () => {
    const event = tracer.startSpan('event');
    const ctx = withSpan(ROOT_CONTEXT, event);
    const handler = tracer.startSpan('handler', {}, ctx);
    expect(handler.spanContext().traceId).toBe(event.spanContext().traceId);
    const inner = withSpan(ctx, handler);
    expect(trace.getSpan(inner)).toBe(handler);
    expect(trace.getSpan(ctx)).toBe(event);
    const set = inner.setValue(other, 1);
    expect(set.getValue(other)).toBe(1);
    expect(inner.getValue(other)).toBeUndefined();
    expect(trace.getSpan(trace.deleteSpan(inner))).toBeUndefined();
    expect(trace.getSpan(inner)).toBe(handler);
  });

  it("carries the span's traceparent and baggage set on it through a propagator", () => {
    const propagator = new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    });
    const span = tracer.startSpan('handler');
    const ctx = propagation.setBaggage(
      withSpan(ROOT_CONTEXT, span),
      propagation.createBaggage({ 'boardbot.handler': { value: 'Echo.echo' } }),
    );
    const headers: Record<string, string> = {};
    propagator.inject(ctx, headers, { set: (c, k, v) => Object.assign(c, { [k]: v }) });
    expect(headers.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    expect(headers.baggage).toBe('boardbot.handler=Echo.echo');
  });
});
