import { useEffect, useState } from 'preact/hooks';

// setTimeout stores its delay in 32 bits; longer waits are cut into pieces.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The current time, refreshed at `wakeAt` (epoch milliseconds) so that something due then (a
 * command whose token expires) re-renders without polling.
 *
 * @param wakeAt - when to refresh next; `undefined` for never.
 */
export function useClock(wakeAt: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (wakeAt === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(MAX_TIMEOUT_MS, Math.max(0, wakeAt - Date.now())));
    return () => clearTimeout(timer);
  }, [wakeAt, now]);
  return now;
}
