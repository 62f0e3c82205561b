import type { Message as BoardMessage, Embed, Media } from '@boardbot/protocol';
import { type Attachment, type Author, Message, toPlainText } from 'chat';
import type { BoardFormatConverter } from './render.js';

/** What Chat SDK's `Message` needs beyond the platform's record. */
export interface MessageContext {
  /** The thread it is in. */
  threadId: string;
  author: Author;
  /** Whether it mentions the bot (`@<bot username>` in its text, or a reply to the bot's message). */
  isMention?: boolean | undefined;
}

/**
 * A platform message as Chat SDK's `Message`: its text is the content's plain text, followed by its
 * embeds' text (an answer made only of embeds still reads as text to `toAiMessages`); its media is
 * an attachment by URL.
 * @param m - the platform's message
 * @param context - its thread, author and mention
 * @param format - parses its content
 */
export function toChatMessage(
  m: BoardMessage,
  context: MessageContext,
  format: BoardFormatConverter,
): Message<BoardMessage> {
  const formatted = format.toAst(m.content ?? '');
  const text = [toPlainText(formatted), ...(m.embeds ?? []).map(embedText)].filter((t) => t !== '').join('\n\n');
  return new Message<BoardMessage>({
    id: m.id,
    threadId: context.threadId,
    text,
    formatted,
    raw: m,
    author: context.author,
    metadata: {
      dateSent: new Date(m.created_at),
      edited: m.edited_at !== null,
      ...(m.edited_at === null ? {} : { editedAt: new Date(m.edited_at) }),
    },
    attachments: m.media === null ? [] : [attachmentOf(m.media)],
    ...(context.isMention === undefined ? {} : { isMention: context.isMention }),
  });
}

function embedText(e: Embed): string {
  return [e.title, e.description, ...(e.fields ?? []).map((f) => `${f.name}: ${f.value}`)]
    .filter((t): t is string => t !== undefined && t !== '')
    .join('\n');
}

function attachmentOf(media: Media): Attachment {
  const kind = media.content_type.split('/')[0];
  const type = kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'file';
  return {
    type,
    url: media.url,
    mimeType: media.content_type,
    size: media.size,
    ...(media.width === null ? {} : { width: media.width }),
    ...(media.height === null ? {} : { height: media.height }),
  };
}

/**
 * Whether `text` names the bot as Chat SDK itself detects a mention: `@<username>` not inside a word
 * (`jane@acme.com` is no mention) and not followed by more name.
 * @param text - the message's text
 * @param userName - the bot's username
 */
export function mentionsName(text: string, userName: string): boolean {
  if (userName === '') return false;
  const escaped = userName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<!\\w)@${escaped}(?![\\w-])`, 'i').test(text);
}
