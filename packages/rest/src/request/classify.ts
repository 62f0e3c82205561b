import { AbortedError, type BoardbotRestError, type ErrorContext, NetworkError, TimeoutError } from '../errors.js';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const CLOSED_CODES = new Set(['UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);

/**
 * The typed error of an attempt that got no usable answer, and whether another attempt may help: the
 * caller's abort and the dispatcher being closed cannot (no `retry`); a timeout or any other network
 * failure (refused, reset, closed mid-answer) is worth one.
 * @param err - what undici threw
 * @param signal - the call's signal (an abort rejects with its reason, which can be anything)
 * @param attempts - attempts made so far
 * @param ctx - the call
 * @param timeoutMs - the per-attempt timeout, for the message
 * @param clientClosed - whether the RestClient itself was closed (then a closed dispatcher is expected)
 */
export function transportFailure(
  err: unknown,
  signal: AbortSignal | undefined,
  attempts: number,
  ctx: ErrorContext,
  timeoutMs: number,
  clientClosed: boolean,
): { error: BoardbotRestError; retry?: 'timeout' | 'network' } {
  if (signal?.aborted) return { error: new AbortedError('signal', ctx, signal.reason) };
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  const text = typeof code === 'string' ? code : undefined;
  if (text && TIMEOUT_CODES.has(text))
    return { error: new TimeoutError({ timeoutMs, attempts }, ctx, err), retry: 'timeout' };
  if (text && CLOSED_CODES.has(text)) {
    return {
      error: clientClosed
        ? new AbortedError('closed', ctx, err)
        : new NetworkError({ attempts, causeCode: 'UND_ERR_CLOSED' }, ctx, err),
    };
  }
  return { error: new NetworkError({ attempts, causeCode: text }, ctx, err), retry: 'network' };
}
