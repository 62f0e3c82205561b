import type { Message, UserProfile } from '@boardbot/protocol';
import { openStream, replyTarget } from '../answers/open-stream.js';
import type { StreamedAnswer, StreamOptions, StreamSource } from '../answers/stream-options.js';
import { readThread, type Thread, type ThreadOptions } from '../answers/thread.js';
import type { EditableAnswers } from '../editable/editable-answers.js';
import { BaseContextImpl, type ContextDeps } from '../kernel/base-context.js';
import { toWireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import type { RunSubject } from '../kernel/scoped.js';
import type { MessageContext } from './context.js';
import type { MessageEventName } from './metadata.js';

/** The {@link MessageContext} of one message event and listener. */
export class MessageContextImpl extends BaseContextImpl implements MessageContext {
  readonly kind = 'message' as const;
  readonly boardId: string;
  readonly isOwn: boolean;
  private replies = 0;
  private streams = 0;

  /**
   * @param deps - what the runtime provides
   * @param event - which message event
   * @param message - the message
   * @param author - its author's profile, if known
   * @param match - the listener's regular expression match
   * @param skipped - the earlier messages of its burst (a burst policy's run)
   * @param editable - an editable listener's answers, kept in step with its message's earlier ones
   */
  constructor(
    deps: ContextDeps,
    readonly event: MessageEventName,
    readonly message: Message,
    readonly author: UserProfile | null,
    readonly match: RegExpExecArray | null,
    readonly skipped: readonly Message[] = [],
    private readonly editable?: EditableAnswers,
  ) {
    super(deps);
    this.boardId = message.board_id;
    this.isOwn = message.author !== null && message.author === deps.app.bot_user_id;
  }

  get authorName(): string {
    return this.author?.display_name ?? this.message.webhook_name ?? 'someone';
  }

  protected override subject(): RunSubject {
    return { userId: this.message.author ?? undefined, boardId: this.boardId };
  }

  get replied(): boolean {
    return this.replies > 0;
  }

  /** Replies sent so far (the runtime compares it around error hooks). */
  get answerCount(): number {
    return this.replies;
  }

  async reply(body: ReplyBody): Promise<Message> {
    const answers = this.editable;
    const wire = toWireBody(body);
    const sent = await this.write('reply', () =>
      answers
        ? answers.reply(wire)
        : this.rest.sendMessage(this.boardId, { ...wire, replyTo: this.message.id }, this.requestOptions),
    );
    this.replies++;
    return sent;
  }

  stream(source: StreamSource, options?: StreamOptions): Promise<StreamedAnswer> {
    const host = { ...this.streamHost(), write: <T>(send: () => Promise<T>) => this.write('stream', send) };
    const target = replyTarget(this, this.message, (content) => this.reply(content));
    return openStream(host, target, this.streams++, source, options);
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

  async send(body: ReplyBody): Promise<Message> {
    const wire = toWireBody(body);
    return this.write('send', () => this.rest.sendMessage(this.boardId, wire, this.requestOptions));
  }

  async edit(message: string | Message, content: string): Promise<Message> {
    const [boardId, id] = typeof message === 'string' ? [this.boardId, message] : [message.board_id, message.id];
    return this.write('edit', () => this.rest.editMessage(boardId, id, { content }, this.requestOptions));
  }

  async delete(message: string | Message): Promise<void> {
    const [boardId, id] = typeof message === 'string' ? [this.boardId, message] : [message.board_id, message.id];
    return this.write('delete', () => this.rest.deleteMessage(boardId, id, this.requestOptions));
  }
}
