import type { OrderBy } from '../dispatch/ordering.js';
import { BurstUnorderedError } from '../errors.js';
import type { MessageListenerMetadata } from '../listeners/metadata.js';
import type { KindHandler } from '../policies/kind.js';

/**
 * Refuses burst policies under `orderBy: 'none'` when the bot is created: a burst is formed from a
 * key's messages in their order, and that order is only kept with `'board'` or `'user'`.
 * @param listeners - the bot's message listeners
 * @param orderBy - the bot's ordering
 * @throws BurstUnorderedError naming the listeners that declare one
 */
export function assertBurstsOrdered(
  listeners: readonly KindHandler<MessageListenerMetadata>[],
  orderBy: OrderBy,
): void {
  if (orderBy !== 'none') return;
  const bursty = listeners.filter(({ meta }) => meta.event === 'message.create' && meta.burst !== undefined);
  if (bursty.length > 0) throw new BurstUnorderedError(bursty.map(({ target }) => target.label));
}
