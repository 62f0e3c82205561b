import { AbortedError, type BoardbotRestError, type ErrorContext, NetworkError, TimeoutError } from '../errors.js';

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

/**
 * The typed error of a transport failure.
 * @param failure - what {@link classifyTransportError} said
 * @param attempts - attempts made so far
 * @param ctx - the call
 * @param timeoutMs - the per-attempt timeout, for the message
 * @param clientClosed - whether the RestClient itself was closed (then a closed dispatcher is expected)
 */
export function transportError(
  failure: TransportFailure,
  attempts: number,
  ctx: ErrorContext,
  timeoutMs: number,
  clientClosed: boolean,
): BoardbotRestError {
  switch (failure.kind) {
    case 'aborted':
      return new AbortedError('signal', ctx, failure.cause);
    case 'closed':
      return clientClosed
        ? new AbortedError('closed', ctx, failure.cause)
        : new NetworkError({ attempts, causeCode: 'UND_ERR_CLOSED' }, ctx, failure.cause);
    case 'timeout':
      return new TimeoutError({ timeoutMs, attempts }, ctx, failure.cause);
    case 'network':
      return new NetworkError({ attempts, causeCode: failure.code }, ctx, failure.cause);
  }
}
