import type { Message, UserProfile } from '@boardbot/protocol';
import type { TextCommandContext } from '../commands/context.js';
import type { EditableAnswers } from '../editable/editable-answers.js';
import { ReplyContextImpl } from '../editable/reply-context.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { ReplyBody } from '../kernel/context.js';
import type { RunSubject } from '../kernel/scoped.js';
import { RUNS } from '../policies/running-handlers.js';

/** The {@link TextCommandContext} of one text invocation: its answers are replies to its message. */
export class TextCommandContextImpl<O extends object> extends ReplyContextImpl implements TextCommandContext<O> {
  readonly kind = 'command' as const;
  readonly via = 'text' as const;
  readonly command: { readonly name: string; readonly subcommand: string | null };
  /** The converted options, set by the command's steps once they are validated. */
  options = {} as O;

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
    message: Message,
    readonly user: UserProfile,
    command: { name: string; subcommand: string | null },
    private readonly prefix: string,
    editable?: EditableAnswers,
  ) {
    super(deps, message, editable);
    this.command = command;
  }

  protected override subject(): RunSubject {
    return { userId: this.user.id, boardId: this.boardId };
  }

  /** The command as people type it: `!roll`, `!note add`. */
  get shownAs(): string {
    const { name, subcommand } = this.command;
    return `${this.prefix}${subcommand ? `${name} ${subcommand}` : name}`;
  }

  /**
   * Whether a refusal may be posted now: at most one a window per person and command (the runner's
   * throttle, `refusalIntervalMs`), since each is a message in the app's shared rate limit; one held
   * back leaves an editable command's earlier answers as they were.
   */
  mayRefuse(): boolean {
    if (this.services.get(RUNS).mayRefuse(this.user.id, this.shownAs, this.log)) return true;
    this.heldBack();
    return false;
  }

  /** Every answer of a text invocation is a reply to its message (there is no interaction to answer). */
  reply(body: ReplyBody): Promise<Message> {
    return this.replyToMessage('reply', body);
  }

  followUp(body: ReplyBody): Promise<Message> {
    return this.replyToMessage('followUp', body);
  }
}
