import { randomUUID } from 'node:crypto';
import type { Message } from '@boardbot/protocol';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { EventKind } from '../policies/kind.js';
import { EditableLinks } from './editable-links.js';

/**
 * Deletes an editable handler's answers when their message is deleted (`deleteWithMessage`, on by
 * default): the answers of the text commands, and of each editable listener, linked to the message.
 * Not a handler run: no handler is called, and deleting twice is a 204, so a replay doubles nothing.
 */
export class AnswerDeletions implements EventKind<Message> {
  private readonly links: EditableLinks;

  /**
   * @param env - the bot's environment
   * @param owners - the link owners whose answers go with their message (`TEXT_COMMANDS`, listener labels)
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly owners: readonly string[],
  ) {
    this.links = new EditableLinks(env);
  }

  /** The deleted message, when it is a person's and some answers may go with it. */
  route(event: BotEvent): Message | undefined {
    if (event.unknown || event.name !== 'message.delete' || this.owners.length === 0) return undefined;
    const { message } = event.data;
    return message.author !== null && message.author === this.env.app().bot_user_id ? undefined : message;
  }

  /** Deletes the linked answers of a deleted message; logs, never rejects. */
  async handle(message: Message, meta: EventMeta): Promise<void> {
    const requestId = randomUUID();
    const logger = this.env.log.child({ event_id: meta.id, correlation_id: requestId, message_id: message.id });
    for (const owner of this.owners) {
      try {
        const deleted = await this.links.deleteAnswers(message, owner, {
          rest: this.env.rest,
          eventId: meta.id,
          requestOptions: { requestId, logger },
        });
        if (deleted > 0) logger.info({ owner, deleted }, 'message deleted: its editable answers deleted too');
      } catch (error) {
        logger.warn({ err: error, owner }, 'could not delete the answers of a deleted message');
        if (meta.outcome) meta.outcome.failed = true;
      }
    }
  }
}
