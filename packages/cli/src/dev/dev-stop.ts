import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { onePerPress } from './one-per-press.js';

/** How a `boardbot dev` stops: when asked, or at the first SIGINT/SIGTERM. */
export interface DevStop {
  /** Stops everything (once, however often called); settles when it has stopped. */
  stop(): Promise<void>;
  /** Settles once everything has stopped, asked or signalled. */
  stopped: Promise<void>;
}

/**
 * Stops `boardbot dev` when asked or at the first SIGINT/SIGTERM (exit code 0, or 1 when stopping
 * failed); a second signal exits at once with 130.
 *
 * @param io - its output, signals and exit
 * @param stopAll - stops the watch, the bot and the emulator (called once)
 */
export function stopOnSignals(io: CliIo, stopAll: () => Promise<void>): DevStop {
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((r) => {
    resolveStopped = r;
  });
  let off: () => void = () => {};
  let stopPromise: Promise<void> | undefined;
  const once = () => {
    stopPromise ??= stopAll();
    return stopPromise;
  };
  const stop = () =>
    once().finally(() => {
      off();
      resolveStopped();
    });
  let signals = 0;
  const pressed = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      // A person who presses Ctrl-C twice does not want to wait; the bot stops itself when the IPC
      // channel closes.
      io.err(`${signal} again: exiting without waiting.`);
      process.exit(130);
    }
    io.out(`${signal}: stopping the bot and the emulator...`);
    const finish = (code: number) => {
      io.exit(code);
      off();
      resolveStopped();
    };
    once().then(
      () => {
        io.out('Stopped.');
        finish(EXIT_CODES.ok);
      },
      (error: unknown) => {
        io.err(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        finish(EXIT_CODES.failure);
      },
    );
  };
  // One Ctrl-C may arrive twice (npm passes the terminal's on): see onePerPress.
  off = io.onSignal(onePerPress(pressed));
  return { stop, stopped };
}
