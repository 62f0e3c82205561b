/** The ids a W3C `traceparent` carries. */
export interface TraceParent {
  traceId: string;
  /** The id of the caller's span (the bot's REST call). */
  spanId: string;
}

// W3C Trace Context §3.2.2: version 00, 32 + 16 lower-case hex ids, neither all zeros.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZEROS = /^0+$/;

/**
 * Reads a `traceparent` header; anything malformed is no trace (never an error: a client's tracing
 * must not break its calls).
 * @param value - the header's value
 */
export function readTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, traceId = '', spanId = ''] = match;
  return ZEROS.test(traceId) || ZEROS.test(spanId) ? undefined : { traceId, spanId };
}

// W3C Baggage §3.3: at most 64 members and 8192 bytes; longer headers are read up to that.
const MAX_MEMBERS = 64;
const MAX_BYTES = 8192;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.trim());
  } catch {
    return text.trim();
  }
}

/**
 * Reads a W3C `baggage` header into its entries (`key=value` members, properties after `;` dropped,
 * values percent-decoded).
 * @param value - the header's value
 */
export function readBaggage(value: unknown): Map<string, string> {
  const entries = new Map<string, string>();
  if (typeof value !== 'string') return entries;
  for (const member of value.slice(0, MAX_BYTES).split(',').slice(0, MAX_MEMBERS)) {
    const [pair = ''] = member.split(';', 1);
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    entries.set(decode(pair.slice(0, eq)), decode(pair.slice(eq + 1)));
  }
  return entries;
}

// Visible ASCII, as the REST client sends it; anything else is not shown.
const REQUEST_ID = /^[\x21-\x7E]{1,255}$/;

/**
 * The `X-Request-Id` of a request, when it is one a client could mean (visible ASCII, ≤ 255).
 * @param value - the header's value
 */
export function readRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : undefined;
}
