import type { Message } from '@boardbot/protocol';
import type { AnswerTarget } from '../answers/answer-stream.js';
import { AnsweringContextImpl } from '../answers/answering-context.js';
import type { ContextDeps } from '../kernel/base-context.js';
import { toWireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import type { WriteOperation } from '../kernel/run.js';
import type { EditableAnswers } from './editable-answers.js';

/**
 * A context whose answers are replies to one message (a message listener's, a text command's): kept
 * in step with the message's earlier answers when its handler is editable.
 */
export abstract class ReplyContextImpl extends AnsweringContextImpl {
  readonly boardId: string;

  /**
   * @param deps - what the runtime provides
   * @param message - the message answered
   * @param editable - an editable handler's answers, kept in step with the message's earlier ones
   */
  constructor(
    deps: ContextDeps,
    readonly message: Message,
    private readonly editable?: EditableAnswers,
  ) {
    super(deps);
    this.boardId = message.board_id;
  }

  /** The run was held back silently before its handler: an editable handler's earlier answers stand. */
  heldBack(): void {
    this.editable?.holdBack();
  }

  /** Posts one answer as a reply to the message (or in step with its earlier answers). */
  protected async replyToMessage(operation: WriteOperation, body: ReplyBody): Promise<Message> {
    const answers = this.editable;
    const wire = toWireBody(body);
    const sent = await this.write(operation, () =>
      answers
        ? answers.reply(wire, this.rest)
        : this.rest.sendMessage(this.boardId, { ...wire, replyTo: this.message.id }),
    );
    this.answers++;
    return sent;
  }

  /**
   * How a streamed answer is posted: its first part through `reply` (the run's next key), the next
   * ones as replies under their named keys.
   */
  protected streamTarget(): AnswerTarget {
    const { board_id: boardId, id: replyTo } = this.message;
    return {
      first: (content) => this.replyToMessage('reply', content),
      more: (content, idempotencyKey) => this.rest.sendMessage(boardId, { content, replyTo }, { idempotencyKey }),
    };
  }
}
