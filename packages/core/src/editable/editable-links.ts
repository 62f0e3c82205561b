import type { Logger, Message } from '@boardbot/protocol';
import { AnswerRecord } from '../answers/answer-record.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { CoreEnv } from '../kernel/env.js';
import type { EventMeta } from '../kernel/event.js';
import type { BotRest } from '../kernel/ports.js';
import { SESSION_STORE } from '../sessions/service.js';
import { linkKey, superseded } from './answer-link.js';
import { EditableAnswers } from './editable-answers.js';

/**
 * The links from people's messages to an editable handler's answers, in the bot's session store
 * (shared by replicas, kept across restarts, each link expiring 24 hours after its last write, at
 * most 64 answers per link: `AnswerRecord`'s bounds).
 */
export class EditableLinks {
  /** @param env - the bot's services (its session store) and clock */
  constructor(private readonly env: Pick<CoreEnv, 'services' | 'clock'>) {}

  private record(): AnswerRecord {
    return new AnswerRecord(this.env.services.get(SESSION_STORE), () => this.env.clock.now());
  }

  /**
   * Whether a run of `eventId` for the message may go: a new message's unless a later event of it
   * ran already (this one, handled again after a crash, must not run); an edit's only where the
   * message's answers are linked (an expired link is none) and not by a later event.
   * @param message - the person's message
   * @param owner - `TEXT_COMMANDS` or a listener's label
   * @param event - the event's id and origin
   * @param edited - whether the event is the message's edit
   */
  async mayRun(message: Message, owner: string, event: EventMeta, edited: boolean): Promise<boolean> {
    const link = await this.record().find(linkKey(message.board_id, message.id, owner));
    return link ? !superseded(link.by, event) : !edited;
  }

  /**
   * The answers of one run to the message, in step with the earlier ones.
   * @param deps - the run's context parts
   * @param message - the person's message
   * @param owner - `TEXT_COMMANDS` or a listener's label
   */
  answers(deps: ContextDeps, message: Message, owner: string): EditableAnswers {
    const key = linkKey(message.board_id, message.id, owner);
    return new EditableAnswers({ record: this.record(), key, run: deps.run, rest: deps.voice.rest, message });
  }

  /**
   * Ends a run's answers (deletes the earlier ones it no longer gives, records the link); logs, never
   * throws: the handler's run is over.
   * @param answers - the run's answers, if its handler is editable
   * @param log - the run's logger
   */
  async finish(answers: EditableAnswers | undefined, log: Logger): Promise<void> {
    try {
      await answers?.finish();
    } catch (error) {
      log.warn(
        { err: error },
        'could not bring the earlier answers in step with this run (their link stays as it was)',
      );
    }
  }

  /**
   * Deletes the answers `owner` gave to a deleted message, and its link's parts.
   * @param message - the tombstone
   * @param owner - `TEXT_COMMANDS` or a listener's label
   * @param deps - the deletion's event id, the REST client and the request options
   * @returns how many answers were deleted
   */
  async deleteAnswers(
    message: Message,
    owner: string,
    deps: { rest: BotRest; eventId: string; requestOptions: { requestId: string; logger: Logger } },
  ): Promise<number> {
    const record = this.record();
    const key = linkKey(message.board_id, message.id, owner);
    const link = await record.find(key);
    if (!link) return 0;
    // Claimed first: an edit of the message handled again after a crash then finds the link superseded.
    await record.write(key, link.parts, deps.eventId);
    // Deleting a deleted message again is a 204 (CONTRACT): a replay of the deletion doubles nothing.
    for (const p of link.parts) await deps.rest.deleteMessage(p.boardId, p.messageId, deps.requestOptions);
    await record.write(key, [], deps.eventId);
    return link.parts.length;
  }
}
