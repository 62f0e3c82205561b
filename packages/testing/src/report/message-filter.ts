import type { Message } from '@boardbot/protocol';

/** Something with a message id: a `Message`, or just `{ id }`. */
export type MessageRef = { readonly id: string };

/**
 * Which message a wait or a lookup wants. Every given field must match; an empty filter matches
 * any message.
 */
export interface MessageFilter {
  /** The board, by name (`'general'`). */
  board?: string;
  /** The message's own id. */
  id?: string;
  /** The message it replies to (`reply_to`), as an id or the message. */
  replyTo?: string | MessageRef;
  /** The interaction it answers, as an id or the interaction. */
  interaction?: string | MessageRef;
  /** Text the content contains, or a regular expression it matches. */
  content?: string | RegExp;
  /** Any other condition. */
  where?: (message: Message) => boolean;
}

/** Turns board ids into names (for filters and reports). */
export type BoardNames = (boardId: string) => string | undefined;

const idOf = (ref: string | MessageRef): string => (typeof ref === 'string' ? ref : ref.id);

/** Whether `message` matches every field of `filter`. */
export function matchesFilter(message: Message, filter: MessageFilter, boardName: BoardNames): boolean {
  if (filter.id !== undefined && message.id !== filter.id) return false;
  if (filter.board !== undefined && boardName(message.board_id) !== filter.board) return false;
  if (filter.replyTo !== undefined && message.reply_to !== idOf(filter.replyTo)) return false;
  if (filter.interaction !== undefined && message.interaction?.id !== idOf(filter.interaction)) return false;
  if (filter.content !== undefined) {
    const text = message.content ?? '';
    if (typeof filter.content === 'string' ? !text.includes(filter.content) : !filter.content.test(text)) return false;
  }
  return filter.where === undefined || filter.where(message);
}

/** A filter in words, for failure messages: `(reply to 1b9e…, content matching /rolled/, on general)`. */
export function describeFilter(filter: MessageFilter): string {
  const parts: string[] = [];
  if (filter.id !== undefined) parts.push(`id ${short(filter.id)}`);
  if (filter.replyTo !== undefined) parts.push(`replying to ${short(idOf(filter.replyTo))}`);
  if (filter.interaction !== undefined) parts.push(`answering interaction ${short(idOf(filter.interaction))}`);
  if (filter.content !== undefined) {
    parts.push(
      typeof filter.content === 'string'
        ? `containing ${JSON.stringify(filter.content)}`
        : `matching ${filter.content}`,
    );
  }
  if (filter.where !== undefined) parts.push('passing the where() check');
  if (filter.board !== undefined) parts.push(`on ${filter.board}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** The first characters of an id: enough to tell messages apart in a report. */
export function short(id: string): string {
  return `${id.slice(0, 8)}…`;
}

/** A message in one line: its text (or embeds), board, and what it replies to or answers. */
export function describeMessage(message: Message, boardName: BoardNames): string {
  const where = boardName(message.board_id) ?? short(message.board_id);
  const about: string[] = [];
  if (message.reply_to) about.push(`reply to ${short(message.reply_to)}`);
  if (message.interaction) about.push(`answer to /${message.interaction.name}`);
  if (message.deleted_at) return `[deleted ${short(message.id)}] on ${where}`;
  return `${bodyText(message)} on ${where}${about.length > 0 ? ` (${about.join(', ')})` : ''}`;
}

function bodyText(message: Message): string {
  const parts: string[] = [];
  if (message.content) parts.push(JSON.stringify(clip(message.content, 120)));
  for (const e of message.embeds ?? []) {
    const fields = e.fields?.length ? `, ${e.fields.length} fields` : '';
    parts.push(`[embed ${JSON.stringify(clip(e.title ?? e.description ?? '', 60))}${fields}]`);
  }
  return parts.join(' ') || '(empty)';
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
