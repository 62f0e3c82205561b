import type { Message, UserProfile } from '@boardbot/protocol';
import { openStream, replyTarget } from '../answers/open-stream.js';
import type { StreamedAnswer, StreamOptions, StreamSource } from '../answers/stream-options.js';
import type { TextCommandContext } from '../commands/context.js';
import type { EditableAnswers } from '../editable/editable-answers.js';
import { BaseContextImpl, type ContextDeps } from '../kernel/base-context.js';
import { toWireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import type { RunSubject } from '../kernel/scoped.js';

/** The {@link TextCommandContext} of one text invocation: its answers are replies to its message. */
export class TextCommandContextImpl<O extends object> extends BaseContextImpl implements TextCommandContext<O> {
  readonly kind = 'command' as const;
  readonly via = 'text' as const;
  readonly boardId: string;
  readonly command: { readonly name: string; readonly subcommand: string | null };
  private currentOptions: O;
  private answers = 0;
  private streams = 0;

  /**
   * @param deps - what the runtime provides
   * @param message - the message that invoked the command
   * @param user - its author
   * @param command - the command and subcommand it names
   * @param prefix - the bot's text prefix (`!`)
   * @param editable - an editable command's answers, kept in step with its message's earlier ones
   */
  constructor(
    deps: ContextDeps,
    readonly message: Message,
    readonly user: UserProfile,
    command: { name: string; subcommand: string | null },
    private readonly prefix: string,
    private readonly editable?: EditableAnswers,
  ) {
    super(deps);
    this.boardId = message.board_id;
    this.command = command;
    this.currentOptions = {} as O;
  }

  protected override subject(): RunSubject {
    return { userId: this.user.id, boardId: this.boardId };
  }

  /** The command as people type it: `!roll`, `!note add`. */
  get shownAs(): string {
    const { name, subcommand } = this.command;
    return `${this.prefix}${subcommand ? `${name} ${subcommand}` : name}`;
  }

  get options(): O {
    return this.currentOptions;
  }

  /** Sets the converted options once they are validated. */
  setOptions(options: O): void {
    this.currentOptions = options;
  }

  get replied(): boolean {
    return this.answers > 0;
  }

  /** Answers sent so far (the runtime compares it around error hooks). */
  get answerCount(): number {
    return this.answers;
  }

  async reply(body: ReplyBody): Promise<Message> {
    return this.answer('reply', body);
  }

  async followUp(body: ReplyBody): Promise<Message> {
    return this.answer('followUp', body);
  }

  async send(body: ReplyBody): Promise<Message> {
    const wire = toWireBody(body);
    return this.write('send', () => this.rest.sendMessage(this.boardId, wire, this.requestOptions));
  }

  /** Streams the answer as replies to the invoking message (see docs/assistants.md). */
  stream(source: StreamSource, options?: StreamOptions): Promise<StreamedAnswer> {
    const host = { ...this.streamHost(), write: <T>(send: () => Promise<T>) => this.write('stream', send) };
    const target = replyTarget(this, this.message, (content) => this.reply(content));
    return openStream(host, target, this.streams++, source, options);
  }

  /** Every answer of a text invocation is a reply to its message (there is no interaction to answer). */
  private async answer(operation: 'reply' | 'followUp', body: ReplyBody): Promise<Message> {
    const answers = this.editable;
    const wire = toWireBody(body);
    const sent = await this.write(operation, () =>
      answers
        ? answers.reply(wire)
        : this.rest.sendMessage(this.boardId, { ...wire, replyTo: this.message.id }, this.requestOptions),
    );
    this.answers++;
    return sent;
  }
}
