import type { Interaction, Message, UserProfile } from '@boardbot/protocol';
import { InteractionExpiredError } from '../errors.js';
import { BaseContextImpl, type ContextDeps } from '../kernel/base-context.js';
import { toWireBody, type WireBody } from '../kernel/body.js';
import type { ReplyBody } from '../kernel/context.js';
import { currentScope } from '../kernel/scope.js';
import type { CommandContext } from './context.js';

/** Whether `error` is the platform's `410 interaction_expired` (as `@boardbot/rest` reports it). */
function isExpired(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { apiCode?: unknown }).apiCode === 'interaction_expired'
  );
}

/** The {@link CommandContext} of one invocation. */
export class CommandContextImpl<O extends object> extends BaseContextImpl implements CommandContext<O> {
  readonly kind = 'command' as const;
  readonly interaction: Interaction;
  readonly user: UserProfile;
  readonly boardId: string;
  readonly command: { readonly name: string; readonly subcommand: string | null };
  private currentOptions: O;
  private answers = 0;
  private expired = false;

  /**
   * @param deps - what the runtime provides
   * @param interaction - the invocation
   */
  constructor(deps: ContextDeps, interaction: Interaction) {
    super(deps);
    this.interaction = interaction;
    this.user = interaction.user;
    this.boardId = interaction.board_id;
    this.command = { name: interaction.command.name, subcommand: interaction.command.subcommand };
    this.currentOptions = {} as O;
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

  reply(body: ReplyBody): Promise<Message> {
    return this.answer(toWireBody(body));
  }

  followUp(body: ReplyBody): Promise<Message> {
    return this.answer(toWireBody(body));
  }

  send(body: ReplyBody): Promise<Message> {
    return this.rest.sendMessage(this.boardId, toWireBody(body), this.requestOptions);
  }

  private async answer(body: WireBody): Promise<Message> {
    // An event handled again after a restart may have been answered by its first run: only the token
    // can tell (the platform replays an answer to the same Idempotency-Key, expired or not), and a
    // board message could answer a second time.
    const replayed = currentScope()?.replayed === true;
    // CONTRACT: tokens expire 15 minutes after the invocation (410 interaction_expired); past that
    // the answer still reaches the board as a normal message rather than being lost.
    if (!replayed && !this.expired && this.now() >= Date.parse(this.interaction.expires_at)) this.expired = true;
    if (!this.expired) {
      try {
        const message = await this.rest.answerInteraction(this.interaction.token, body, this.requestOptions);
        this.answers++;
        return message;
      } catch (error) {
        if (!isExpired(error)) throw error;
        if (replayed) throw new InteractionExpiredError(`/${this.interaction.command.name}`);
        this.expired = true;
      }
    }
    this.log.warn('interaction expired: answering with a normal message on the board instead');
    const message = await this.rest.sendMessage(this.boardId, body, this.requestOptions);
    this.answers++;
    return message;
  }
}
