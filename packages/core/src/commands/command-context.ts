import type { Interaction, InteractionResponseBody, Message, UserProfile } from '@boardbot/protocol';
import { LIMITS } from '@boardbot/protocol/runtime';
import type { AnswerTarget } from '../answers/answer-stream.js';
import { AnsweringContextImpl } from '../answers/answering-context.js';
import { InteractionExhaustedError, InteractionExpiredError } from '../errors.js';
import { apiCodeOf } from '../kernel/api-code.js';
import type { ContextDeps } from '../kernel/base-context.js';
import { toWireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import type { WriteOperation } from '../kernel/run.js';
import type { RunSubject } from '../kernel/scoped.js';
import type { ExhaustedInteraction, SlashCommandContext } from './context.js';

/** Why answers no longer go through the interaction. */
type Fallback = 'expired' | 'exhausted';

const FALLBACK_WARNINGS: Record<Fallback, string> = {
  expired: 'interaction expired: answering with a normal message on the board instead',
  exhausted:
    "interaction exhausted (5 answers): answering with a normal message on the board instead (exhaustedInteraction: 'send')",
};

/** The {@link SlashCommandContext} of one invocation. */
export class CommandContextImpl<O extends object> extends AnsweringContextImpl implements SlashCommandContext<O> {
  readonly kind = 'command' as const;
  readonly via = 'slash' as const;
  readonly interaction: Interaction;
  readonly user: UserProfile;
  readonly boardId: string;
  readonly command: { readonly name: string; readonly subcommand: string | null };
  /** The converted options, set by the command's steps once they are validated. */
  options = {} as O;
  private fallback: Fallback | undefined;
  private exhausted: InteractionExhaustedError | undefined;

  /**
   * @param deps - what the runtime provides
   * @param interaction - the invocation
   * @param onExhausted - what a sixth answer does (`createBot({ exhaustedInteraction })`)
   */
  constructor(
    deps: ContextDeps,
    interaction: Interaction,
    private readonly onExhausted: ExhaustedInteraction,
  ) {
    super(deps);
    this.interaction = interaction;
    this.user = interaction.user;
    this.boardId = interaction.board_id;
    this.command = { name: interaction.command.name, subcommand: interaction.command.subcommand };
  }

  protected override subject(): RunSubject {
    return { userId: this.user.id, boardId: this.boardId };
  }

  /** A slash invocation is always told why it is refused: it awaits its answer. */
  mayRefuse(): boolean {
    return true;
  }

  /** The command as people type it: `/roll`, `/note add`. */
  get shownAs(): string {
    const { name, subcommand } = this.command;
    return `/${subcommand ? `${name} ${subcommand}` : name}`;
  }

  async reply(body: ReplyBody): Promise<Message> {
    return this.answer('reply', toWireBody(body));
  }

  async followUp(body: ReplyBody): Promise<Message> {
    return this.answer('followUp', toWireBody(body));
  }

  protected streamTarget(): AnswerTarget {
    return {
      first: (content: string) => this.answer(this.replied ? 'followUp' : 'reply', { content }),
      more: (content: string, key: string) => this.streamPart(content, key),
    };
  }

  /**
   * A later message of a streamed answer, under its named key: an answer of the interaction while
   * it takes more (5 in all), then a normal message on the board.
   */
  private async streamPart(content: string, idempotencyKey: string): Promise<Message> {
    const o = { idempotencyKey };
    if (!this.fallback && this.answers < LIMITS.interactionAnswers) {
      try {
        const message = await this.rest.answerInteraction(this.interaction.token, { content }, o);
        this.answers++;
        return message;
      } catch (error) {
        const code = apiCodeOf(error);
        if (code !== 'interaction_exhausted' && code !== 'interaction_expired') throw error;
      }
    }
    const message = await this.rest.sendMessage(this.boardId, { content }, o);
    this.answers++;
    return message;
  }

  private async answer(operation: WriteOperation, body: InteractionResponseBody): Promise<Message> {
    if (this.exhausted) throw this.exhausted;
    // An event handled again after a restart may have been answered by its first run: only the token
    // can tell (the platform replays an answer to the same Idempotency-Key, expired or not), and a
    // board message could answer a second time.
    const replayed = this.run.replayed;
    // CONTRACT: tokens expire 15 minutes after the invocation (410 interaction_expired); past that
    // the answer still reaches the board as a normal message rather than being lost.
    if (!replayed && !this.fallback && this.now() >= Date.parse(this.interaction.expires_at)) this.fallback = 'expired';
    if (!this.fallback) {
      try {
        const message = await this.write(operation, () => this.rest.answerInteraction(this.interaction.token, body));
        this.answers++;
        return message;
      } catch (error) {
        this.fallback = this.fallbackFor(error, replayed);
      }
    }
    this.log.warn(FALLBACK_WARNINGS[this.fallback]);
    const message = await this.write(operation, () => this.rest.sendMessage(this.boardId, body));
    this.answers++;
    return message;
  }

  /** The fallback a failed answer calls for; rethrows any other failure. */
  private fallbackFor(error: unknown, replayed: boolean): Fallback {
    const code = apiCodeOf(error);
    const command = this.shownAs;
    if (code === 'interaction_expired') {
      if (replayed) throw new InteractionExpiredError(command);
      return 'expired';
    }
    // CONTRACT: up to 5 answers per token; a sixth is 410 interaction_exhausted. Posting it on the
    // board would hide that the handler answers too often, so it is an error unless asked for.
    if (code !== 'interaction_exhausted') throw error;
    if (this.onExhausted === 'send') return 'exhausted';
    this.exhausted = new InteractionExhaustedError(command, error);
    throw this.exhausted;
  }
}
