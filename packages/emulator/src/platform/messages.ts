import type { Embed, Message, MessageInteraction } from '@boardbot/protocol';
import { PlatformError, validationFailed } from '../errors.js';
import type { MessageRow } from '../store/messages.js';
import type { Outbox } from './outbox.js';
import type { Platform } from './platform.js';

/** What a new message is made of; the body was already checked against the protocol schemas. */
export interface NewMessage {
  boardId: string;
  /** The author's user id; null for a webhook. */
  author: string | null;
  webhookName?: string;
  content?: string;
  embeds?: Embed[];
  replyTo?: string;
  /** Set on interaction responses. */
  interaction?: MessageInteraction;
}

/** A message and its JSON text (serialized once, used for the answer, the log and the row). */
export interface MessageResult {
  message: Message;
  json: string;
}

const eventData = (name: string, json: string) => `{"type":"${name}","message":${json}}`;

/**
 * Stores a new message on a board and raises `message.create` (inside a write). The caller checked
 * that the author may post there.
 */
export function createMessage(p: Platform, out: Outbox, m: NewMessage): MessageResult {
  const { store } = p;
  // CONTRACT: `replyTo` must name a message of the same board.
  if (m.replyTo !== undefined && store.messages.byId(m.boardId, m.replyTo) === undefined) {
    throw validationFailed([{ path: '/replyTo', message: 'Expected the id of a message of the same board' }]);
  }
  const message: Message = {
    id: p.newId(),
    board_id: m.boardId,
    author: m.author,
    kind: m.interaction ? 'interaction_response' : m.replyTo !== undefined ? 'reply' : 'default',
    content: m.content ?? null,
    media: null,
    embeds: m.embeds ?? null,
    webhook_name: m.webhookName ?? null,
    reply_to: m.replyTo ?? null,
    seq: store.nextSeq(m.boardId),
    created_at: p.isoNow(),
    edited_at: null,
    deleted_at: null,
    interaction: m.interaction ?? null,
  };
  const json = JSON.stringify(message);
  store.messages.insert(message, json);
  p.appendBoardEvent(out, m.boardId, 'message.create', eventData('message.create', json));
  return { message, json };
}

/** Loads a message of a board; `404 unknown_message` when there is none. */
export function findMessage(p: Platform, boardId: string, messageId: string): MessageRow {
  const row = p.store.messages.byId(boardId, messageId);
  if (!row) throw new PlatformError('unknown_message', 'No message with this id on the board');
  return row;
}

/** Who is changing a message: an app's bot user (only its own messages) or the control API (any). */
export type Editor = { userId: string } | 'admin';

function checkAuthor(row: MessageRow, editor: Editor, verb: string): void {
  // CONTRACT: editing or deleting a message the app did not author is `403 forbidden`.
  if (editor !== 'admin' && row.author !== editor.userId) {
    throw new PlatformError('forbidden', `The app can only ${verb} the messages its bot user wrote`);
  }
}

/** Edits a message's content and raises `message.edit` (inside a write). */
export function editMessage(
  p: Platform,
  out: Outbox,
  boardId: string,
  messageId: string,
  content: string,
  editor: Editor,
): MessageResult {
  const row = findMessage(p, boardId, messageId);
  checkAuthor(row, editor, 'edit');
  // CONTRACT: editing a deleted message is `404 unknown_message`.
  if (row.deleted === 1) throw new PlatformError('unknown_message', 'The message was deleted');
  const message = JSON.parse(row.json) as Message;
  if (content.length === 0 && (message.embeds === null || message.embeds.length === 0)) {
    throw validationFailed([{ path: '/content', message: 'Expected a non-empty content: the message has no embeds' }]);
  }
  message.content = content;
  message.edited_at = p.isoNow();
  const json = JSON.stringify(message);
  p.store.messages.update(message, json);
  p.appendBoardEvent(out, boardId, 'message.edit', eventData('message.edit', json));
  wakeAnswerWaiters(p, out, message);
  return { message, json };
}

/**
 * Turns a message into a tombstone and raises `message.delete` (inside a write). Deleting a
 * tombstone again changes nothing and raises nothing (CONTRACT: 204 again, idempotent).
 */
export function deleteMessage(p: Platform, out: Outbox, boardId: string, messageId: string, editor: Editor): void {
  const row = findMessage(p, boardId, messageId);
  checkAuthor(row, editor, 'delete');
  if (row.deleted === 1) return;
  const message = JSON.parse(row.json) as Message;
  // CONTRACT: tombstones keep their seq; content, embeds and media become null.
  message.content = null;
  message.embeds = null;
  message.media = null;
  message.deleted_at = p.isoNow();
  const json = JSON.stringify(message);
  p.store.messages.update(message, json);
  p.appendBoardEvent(out, boardId, 'message.delete', eventData('message.delete', json));
  wakeAnswerWaiters(p, out, message);
}

/** An interaction's answer changed: the control API's waits for its final text look again, after the commit. */
function wakeAnswerWaiters(p: Platform, out: Outbox, message: Message): void {
  const id = message.interaction?.id;
  if (id !== undefined) out.afterCommit.push(() => p.answerWaiters.notify(id));
}
