import { type Baggage, isSpanContextValid, type SpanContext } from '@opentelemetry/api';

/**
 * The W3C Trace Context `traceparent` of a span (version 00), or undefined for an invalid context.
 * W3C Trace Context §3.2: `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`.
 * @param span - the span's context
 */
export function formatTraceparent(span: SpanContext): string | undefined {
  if (!isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * The W3C `baggage` header of a baggage (W3C Baggage §3.2: `key=value` members, comma separated,
 * values percent-encoded), or undefined when it is empty.
 * @param baggage - the context's baggage, if any
 */
export function formatBaggage(baggage: Baggage | undefined): string | undefined {
  const members = baggage?.getAllEntries() ?? [];
  if (members.length === 0) return undefined;
  return members.map(([key, entry]) => `${encodeURIComponent(key)}=${encodeURIComponent(entry.value)}`).join(',');
}
