import type { Message, UserProfile } from '@boardbot/protocol';
import type { MessageEventName } from '../metadata/types.js';
import { BaseContextImpl, type ContextDeps } from './base-context.js';
import { toWireBody } from './body.js';
import type { MessageContext, ReplyBody } from './types.js';

/** The {@link MessageContext} of one message event and listener. */
export class MessageContextImpl extends BaseContextImpl implements MessageContext {
  readonly kind = 'message' as const;
  readonly boardId: string;
  readonly isOwn: boolean;
  private replies = 0;

  /**
   * @param deps - what the runtime provides
   * @param event - which message event
   * @param message - the message
   * @param author - its author's profile, if known
   * @param match - the listener's regular expression match
   */
  constructor(
    deps: ContextDeps,
    readonly event: MessageEventName,
    readonly message: Message,
    readonly author: UserProfile | null,
    readonly match: RegExpExecArray | null,
  ) {
    super(deps);
    this.boardId = message.board_id;
    this.isOwn = message.author !== null && message.author === deps.app.bot_user_id;
  }

  get authorName(): string {
    return this.author?.display_name ?? this.message.webhook_name ?? 'someone';
  }

  get replied(): boolean {
    return this.replies > 0;
  }

  /** Replies sent so far (the runtime compares it around error hooks). */
  get answerCount(): number {
    return this.replies;
  }

  async reply(body: ReplyBody): Promise<Message> {
    const options = this.admit('reply');
    const sent = await this.rest.sendMessage(this.boardId, { ...toWireBody(body), replyTo: this.message.id }, options);
    this.replies++;
    return sent;
  }

  async send(body: ReplyBody): Promise<Message> {
    const options = this.admit('send');
    return this.rest.sendMessage(this.boardId, toWireBody(body), options);
  }

  async edit(message: string | Message, content: string): Promise<Message> {
    const options = this.admit('edit');
    const [boardId, id] = typeof message === 'string' ? [this.boardId, message] : [message.board_id, message.id];
    return this.rest.editMessage(boardId, id, { content }, options);
  }

  async delete(message: string | Message): Promise<void> {
    const options = this.admit('delete');
    const [boardId, id] = typeof message === 'string' ? [this.boardId, message] : [message.board_id, message.id];
    return this.rest.deleteMessage(boardId, id, options);
  }
}
