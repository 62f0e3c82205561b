import type { Board, Member, Message, UserProfile } from '@boardbot/protocol';

// What the tools give an agent: the platform's records, trimmed to what a model reads (no avatar
// URLs, no empty fields), with people named so a thread reads as a conversation.

/** A board as the tools show it. */
export function boardShape(b: Board) {
  return { id: b.id, name: b.name, description: b.description, member_count: b.member_count };
}

/** A member as the tools show it. */
export function memberShape(m: Member) {
  return { ...personShape(m.user), role: m.role };
}

/** A person as the tools show them. */
export function personShape(u: UserProfile) {
  return { user_id: u.id, username: u.username, display_name: u.display_name, is_bot: u.is_bot };
}

/**
 * A message as the tools show it: who wrote it (a person's display name, a webhook's name), what it
 * says, what it replies to; a deleted one says so and shows nothing of what it was.
 * @param m - the message
 * @param names - display names by user id
 */
export function messageShape(m: Message, names: ReadonlyMap<string, string>) {
  const author = m.author === null ? (m.webhook_name ?? 'someone') : (names.get(m.author) ?? m.author);
  return {
    id: m.id,
    seq: m.seq,
    author,
    author_id: m.author,
    ...(m.deleted_at === null ? { content: m.content, embeds: m.embeds?.length ?? 0 } : { deleted: true }),
    reply_to: m.reply_to,
    created_at: m.created_at,
    ...(m.edited_at !== null && { edited_at: m.edited_at }),
  };
}
