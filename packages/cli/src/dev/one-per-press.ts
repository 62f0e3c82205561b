import { performance } from 'node:perf_hooks';

/** How soon after a signal the same signal again is taken as a copy of it, not as a second press. */
export const FORWARDED_COPY_MS = 500;

/**
 * Wraps a SIGINT/SIGTERM handler so that one Ctrl-C reaches it once. The terminal signals every
 * process of the foreground job, and npm (`npx boardbot dev`; `npm run dev` where npm's script shell
 * runs the command itself, as bash does) also passes the signal it got on to the command it
 * started: the same press arrives twice, milliseconds apart. Counted as two, it made `dev` exit at
 * once with 130 instead of stopping cleanly with 0. Only one copy per signal is dropped, so a person's
 * own second Ctrl-C still gets through.
 *
 * @param handler - what a press does
 * @param now - a monotonic clock in milliseconds
 * @defaultValue now: `performance.now`
 */
export function onePerPress(
  handler: (signal: NodeJS.Signals) => void,
  now: () => number = () => performance.now(),
): (signal: NodeJS.Signals) => void {
  let last: { signal: NodeJS.Signals; at: number; copyDropped: boolean } | undefined;
  return (signal) => {
    const at = now();
    if (last && !last.copyDropped && last.signal === signal && at - last.at < FORWARDED_COPY_MS) {
      last.copyDropped = true;
      return;
    }
    last = { signal, at, copyDropped: false };
    handler(signal);
  };
}
