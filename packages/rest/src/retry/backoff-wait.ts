import { setTimeout as wait } from 'node:timers/promises';
import { AbortedError, type ErrorContext } from '../errors.js';

/**
 * Waits `ms` for a back-off, or rejects with `AbortedError` when the call's `signal`, or the client's
 * `closing` signal (its `close()`), aborts first, so a closed client leaves no timer behind.
 * @param ms - the delay
 * @param context - the call, for the error
 * @param signal - the call's signal
 * @param closing - aborted when the client closes
 */
export async function backoffWait(
  ms: number,
  context: ErrorContext,
  signal: AbortSignal | undefined,
  closing: AbortSignal,
): Promise<void> {
  try {
    await wait(ms, undefined, { signal: signal ? AbortSignal.any([signal, closing]) : closing });
  } catch (error) {
    if (signal?.aborted) throw new AbortedError('signal', context, signal.reason);
    if (closing.aborted) throw new AbortedError('closed', context);
    throw error;
  }
}
