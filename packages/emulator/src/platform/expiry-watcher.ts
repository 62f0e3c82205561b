import { interactionView } from './interactions.js';
import { Outbox } from './outbox.js';
import type { Platform } from './platform.js';

/**
 * Tells the activity stream when an unanswered interaction's token expires (`interaction.update`
 * with status `expired`), so the playground can show it. Checks once per `intervalMs` against the
 * platform's clock, and only while someone follows the activity stream.
 *
 * @returns A function that stops the watcher.
 */
export function watchInteractionExpiry(p: Platform, intervalMs = 1000): () => void {
  let last = p.now();
  const timer = setInterval(() => {
    const now = p.now();
    if (p.activity.size > 0 && !p.isDisposed) {
      const out = new Outbox();
      for (const row of p.store.interactions.expiredBetween(last, now)) {
        out.activityEvent('interaction.update', { interaction: interactionView(p, row) });
      }
      if (out.activity.length > 0) p.pushActivity(out);
    }
    last = now;
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
