import type { Logger } from '@boardbot/protocol';
import { BOT_EXIT_CODES } from './exit-codes.js';

/** Something that emits process signals (the real `process`, or an emitter in tests). */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/**
 * On the first SIGINT or SIGTERM, stops the bot gracefully and exits with the code the stop
 * resolves with (1 if stopping failed); a second signal exits at once with 130, for a person who
 * does not want to wait. The codes are {@link BOT_EXIT_CODES}.
 *
 * @param stop - the bot's graceful stop; resolves with the exit code
 * @param options - signal source, exit function and logger
 * @returns removes the listeners
 */
export function handleShutdownSignals(
  stop: () => Promise<number>,
  options: { source: SignalSource; exit: (code: number) => void; log: Logger },
): () => void {
  const { source, exit, log } = options;
  let stopping = false;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => () => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      exit(BOT_EXIT_CODES.interrupted);
      return;
    }
    stopping = true;
    log.info({ signal }, 'stopping gracefully');
    stop().then(exit, (error: unknown) => {
      log.error({ err: error }, 'graceful stop failed');
      exit(BOT_EXIT_CODES.failed);
    });
  };
  const listeners = (['SIGINT', 'SIGTERM'] as const).map((signal) => [signal, onSignal(signal)] as const);
  for (const [signal, listener] of listeners) source.on(signal, listener);
  return () => {
    for (const [signal, listener] of listeners) source.off(signal, listener);
  };
}
