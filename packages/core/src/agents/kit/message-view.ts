import type { Member, Message } from '@boardbot/protocol';

/** A message as the board kit gives it to a model: who, what (cut to a bound), what it replies to. */
export interface MessageView {
  id: string;
  author: string;
  author_id: string | null;
  /** Its text, cut to the kit's `maxChars` (ending in `…` when cut); absent when deleted. */
  content?: string;
  deleted?: true;
  reply_to: string | null;
  created_at: string;
}

/**
 * Cuts a text to `max` characters, the last being `…` when it was longer.
 * @param text - the text
 * @param max - most characters kept
 */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A message as the kit shows it: its author by display name (from the board's members), its text cut
 * to `maxChars`, a deleted one marked and showing nothing of what it was.
 * @param m - the message
 * @param members - the board's members, for names
 * @param maxChars - most characters of its text
 */
export function messageView(m: Message, members: readonly Member[], maxChars: number): MessageView {
  const name = members.find((x) => x.user.id === m.author)?.user.display_name;
  return {
    id: m.id,
    author: m.author === null ? (m.webhook_name ?? 'someone') : (name ?? m.author),
    author_id: m.author,
    ...(m.deleted_at === null ? { content: cut(m.content ?? '', maxChars) } : { deleted: true as const }),
    reply_to: m.reply_to,
    created_at: m.created_at,
  };
}
