import type { Interaction, Message } from '@boardbot/protocol';
import type { AnswerTarget } from '../answers/answer-stream.js';
import type { CommandContext } from '../commands/context.js';
import { ContextBase, type ContextDeps } from '../kernel/base-context.js';
import type { ReplyBody, TranslateValues } from '../kernel/context.js';
import { englishText, TRANSLATOR } from '../kernel/translate.js';
import type { MessageContext } from '../listeners/context.js';
import { MessageContextImpl } from '../listeners/message-context.js';
import type { TurnAsker } from './approval-store.js';
import { shareTurn } from './asking-turns.js';
import { standIn } from './command-runs.js';

/**
 * The asking message's context, in a run that is not its own (the run of the reply or command that
 * approved the turn, or of the command that began it): the same message, author, board and locale as
 * when it was asked, its writes through that run (its keys, its signal). A slash invocation's
 * stand-in is not on the board: its answers are messages of the board, replying to nothing.
 */
class AskerContextImpl extends MessageContextImpl {
  /**
   * @param deps - the running handler's
   * @param asker - whom the turn acts for
   */
  constructor(
    deps: ContextDeps,
    private readonly asker: TurnAsker,
  ) {
    super(deps, 'message.create', asker.message, asker.profile, null);
  }

  override get locale(): string {
    return this.asker.locale;
  }

  override t(key: string, values?: TranslateValues): string {
    const translator = this.services.find(TRANSLATOR);
    return translator ? translator.t(this.asker.locale, key, values) : englishText(key, values);
  }

  override reply(body: ReplyBody): Promise<Message> {
    return this.asker.standIn ? this.onBoard(body) : super.reply(body);
  }

  protected override streamTarget(): AnswerTarget {
    if (!this.asker.standIn) return super.streamTarget();
    return {
      first: (content) => this.onBoard(content),
      more: (content, idempotencyKey) => this.rest.sendMessage(this.boardId, { content }, { idempotencyKey }),
    };
  }

  private async onBoard(body: ReplyBody): Promise<Message> {
    const sent = await this.send(body);
    this.answers++;
    return sent;
  }
}

/** A slash invocation as a person types it: `/ask question: pin the plan`. */
function typed({ command }: Interaction): string {
  const options = Object.entries(command.options).map(([name, value]) => ` ${name}: ${value}`);
  return `/${[command.name, command.subcommand].filter(Boolean).join(' ')}${options.join('')}`;
}

/**
 * What a turn keeps of the person it acts for, from the context that asked: a message's, a text
 * invocation's (its message), or a slash invocation's (a stand-in message: the interaction's id and
 * the command as typed).
 * @param ctx - the asking message's or command's context
 */
export function askerOf(ctx: MessageContext | CommandContext): TurnAsker {
  if (ctx.kind === 'message') return { message: ctx.message, profile: ctx.author, locale: ctx.locale };
  if (ctx.via === 'text') return { message: ctx.message, profile: ctx.user, locale: ctx.locale };
  const { interaction } = ctx;
  const message = standIn(ctx.boardId, ctx.user, typed(interaction), interaction.id, interaction.created_at);
  return { message, profile: ctx.user, locale: ctx.locale, standIn: true };
}

/**
 * The context a resumed turn builds its tools on: the asking person's, so `commandTools` run their
 * commands as that person (their guards, roles and cooldowns) and `boardTools` open their boards,
 * whoever approved; its writes go through the deciding run. A turn begun by a command builds its
 * tools on it too (the command's own run).
 * @param deciding - the context of the running handler: the reply or command that decided the
 *   approval, or the command that began the turn
 * @param asker - whom the turn acts for
 */
export function askerContext(deciding: object, asker: TurnAsker): MessageContext {
  const { deps } = ContextBase.internals(deciding as ContextBase);
  const ctx = new AskerContextImpl(deps, asker);
  shareTurn(deciding, ctx);
  return ctx;
}
