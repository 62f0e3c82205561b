import type { Message } from '@boardbot/protocol';
import type { MessageListenerMetadata } from './metadata.js';

/**
 * Tests a message against a listener's matcher: `false` when it does not match, else the regular
 * expression match (or null for prefixes, predicates and listeners without a matcher).
 */
export function matchMessage(
  { matcher, pattern }: Pick<MessageListenerMetadata, 'matcher' | 'pattern'>,
  message: Message,
): RegExpExecArray | null | false {
  if (matcher === undefined) return null;
  if (typeof matcher === 'function') return matcher(message) ? null : false;
  if (message.content === null) return false;
  if (typeof matcher === 'string') return message.content.startsWith(matcher) ? null : false;
  // The decorators make every regular expression a pattern (its engine and length bound).
  return pattern?.exec(message.content) ?? false;
}

/**
 * Whether a listener of `message.create` chose the message by its matcher (a prefix, a pattern or a
 * predicate; one that throws counts as choosing it): the message is that listener's, and the runtime
 * adds no answer of its own beside it (a text command's did-you-mean). A listener without a matcher
 * (a conversation's, which hears every message) chooses none.
 * @param listeners - the listeners of `message.create`
 * @param message - the new message
 */
export function chosenByListener(
  listeners: readonly Pick<MessageListenerMetadata, 'matcher' | 'pattern'>[],
  message: Message,
): boolean {
  return listeners.some((listener) => {
    if (listener.matcher === undefined) return false;
    try {
      return matchMessage(listener, message) !== false;
    } catch {
      return true;
    }
  });
}
