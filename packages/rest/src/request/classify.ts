/** What went wrong with an attempt that got no usable answer. */
export type TransportFailure =
  | { kind: 'aborted'; cause: unknown }
  | { kind: 'timeout'; cause: unknown }
  | { kind: 'network'; code: string | undefined; cause: unknown }
  | { kind: 'closed'; cause: unknown };

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const CLOSED_CODES = new Set(['UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);

/**
 * Sorts a transport error: the caller's abort, a timeout, the dispatcher being closed, or any other
 * network failure (refused, reset, closed mid-answer), which is worth a retry.
 * @param err - what undici threw
 * @param signal - the call's signal (an abort rejects with its reason, which can be anything)
 */
export function classifyTransportError(err: unknown, signal: AbortSignal | undefined): TransportFailure {
  if (signal?.aborted) return { kind: 'aborted', cause: signal.reason };
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  const text = typeof code === 'string' ? code : undefined;
  if (text && TIMEOUT_CODES.has(text)) return { kind: 'timeout', cause: err };
  if (text && CLOSED_CODES.has(text)) return { kind: 'closed', cause: err };
  return { kind: 'network', code: text, cause: err };
}
