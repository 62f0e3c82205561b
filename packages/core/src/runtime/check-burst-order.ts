import type { OrderBy } from '../dispatch/ordering.js';
import type { Routes } from '../dispatch/routes.js';
import { BurstUnorderedError } from '../errors.js';

/**
 * Refuses burst policies under `orderBy: 'none'` when the bot is created: a burst is formed from a
 * key's messages in their order, and that order is only kept with `'board'` or `'user'`.
 * @param routes - the bot's routes
 * @param orderBy - the bot's ordering
 * @throws BurstUnorderedError naming the listeners that declare one
 */
export function assertBurstsOrdered(routes: Pick<Routes, 'messages'>, orderBy: OrderBy): void {
  if (orderBy !== 'none') return;
  const bursty = routes.messages['message.create'].filter((target) => target.listener.burst !== undefined);
  if (bursty.length > 0) throw new BurstUnorderedError(bursty.map((target) => target.label));
}
