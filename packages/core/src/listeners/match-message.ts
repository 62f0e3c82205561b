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
