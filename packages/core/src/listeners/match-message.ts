import type { Message } from '@boardbot/protocol';
import type { MessageMatcher } from './metadata.js';

/**
 * Tests a message against a listener's matcher: `false` when it does not match, else the regular
 * expression match (or null for prefixes, predicates and listeners without a matcher).
 */
export function matchMessage(matcher: MessageMatcher | undefined, message: Message): RegExpExecArray | null | false {
  if (matcher === undefined) return null;
  if (typeof matcher === 'function') return matcher(message) ? null : false;
  if (message.content === null) return false;
  if (typeof matcher === 'string') return message.content.startsWith(matcher) ? null : false;
  // A global or sticky expression remembers lastIndex between calls; every message starts afresh.
  matcher.lastIndex = 0;
  return matcher.exec(message.content) ?? false;
}
