import type { Message, UserProfile } from '@boardbot/protocol';
import { readThread, type Thread, type ThreadOptions } from '../answers/thread.js';
import type { EditableAnswers } from '../editable/editable-answers.js';
import { ReplyContextImpl } from '../editable/reply-context.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { ReplyBody } from '../kernel/context.js';
import type { RunSubject } from '../kernel/scoped.js';
import { RUNS } from '../policies/running-handlers.js';
import type { MessageContext } from './context.js';
import type { MessageEventName } from './metadata.js';

/** The {@link MessageContext} of one message event and listener. */
export class MessageContextImpl extends ReplyContextImpl implements MessageContext {
  readonly kind = 'message' as const;
  readonly isOwn: boolean;

  /**
   * @param deps - what the runtime provides
   * @param event - which message event
   * @param message - the message
   * @param author - its author's profile, if known
   * @param match - the listener's regular expression match
   * @param skipped - the earlier messages of its burst (a burst policy's run)
   * @param skippedCount - `skipped`'s length and the burst's messages released past its cap
   * @param editable - an editable listener's answers, kept in step with its message's earlier ones
   */
  constructor(
    deps: ContextDeps,
    readonly event: MessageEventName,
    message: Message,
    readonly author: UserProfile | null,
    readonly match: RegExpExecArray | null,
    readonly skipped: readonly Message[] = [],
    readonly skippedCount: number = skipped.length,
    editable?: EditableAnswers,
  ) {
    super(deps, message, editable);
    this.isOwn = message.author !== null && message.author === deps.app.bot_user_id;
  }

  /** Who the message counts as, for cooldowns and refusals: its author, or the webhook by its name. */
  get who(): string {
    return this.message.author ?? `webhook:${this.message.webhook_name ?? ''}`;
  }

  /**
   * Whether a refusal about `what` (a listener's label) may be posted to the message's author now:
   * at most one a window (the runner's throttle, `refusalIntervalMs`).
   */
  mayRefuse(what: string): boolean {
    return this.services.get(RUNS).mayRefuse(this.who, what, this.log);
  }

  get authorName(): string {
    return this.author?.display_name ?? this.message.webhook_name ?? 'someone';
  }

  protected override subject(): RunSubject {
    return { userId: this.message.author ?? undefined, boardId: this.boardId };
  }

  reply(body: ReplyBody): Promise<Message> {
    return this.replyToMessage('reply', body);
  }

  thread(options?: ThreadOptions): Promise<Thread> {
    // Names read once per thread; the message's own author is known already.
    const names = new Map<string, Promise<string>>();
    if (this.author) names.set(this.author.id, Promise.resolve(this.author.display_name));
    const nameOf = (userId: string) => {
      let name = names.get(userId);
      if (name === undefined) {
        name = this.rest.getUser(userId, this.requestOptions).then(
          (profile) => profile.display_name,
          () => 'someone',
        );
        names.set(userId, name);
      }
      return name;
    };
    const source = { rest: this.rest, botUserId: this.app.bot_user_id, nameOf, requestOptions: this.requestOptions };
    return readThread(source, this.message, options);
  }

  async edit(message: string | Message, content: string): Promise<Message> {
    const [boardId, id] = typeof message === 'string' ? [this.boardId, message] : [message.board_id, message.id];
    return this.write('edit', () => this.rest.editMessage(boardId, id, { content }));
  }

  async delete(message: string | Message): Promise<void> {
    const [boardId, id] = typeof message === 'string' ? [this.boardId, message] : [message.board_id, message.id];
    return this.write('delete', () => this.rest.deleteMessage(boardId, id));
  }
}
