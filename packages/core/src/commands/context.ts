import type { Interaction, Message, UserProfile } from '@boardbot/protocol';
import type { StreamedAnswer, StreamOptions, StreamSource } from '../answers/stream-options.js';
import type { BaseContext, ReplyBody } from '../kernel/context.js';

/**
 * What an answer to an interaction does once the platform refused it as the sixth
 * (`410 interaction_exhausted`; it accepts 5 per interaction): `'error'` throws
 * `BOARDBOT_INTERACTION_EXHAUSTED`, `'send'` posts it as a normal message on the board instead.
 */
export type ExhaustedInteraction = 'error' | 'send';

/** How a command was invoked: as a slash command, or as text in a message (`!roll 20`). */
export type CommandVia = 'slash' | 'text';

/** What a command handler receives, however it was invoked. `O` is the options class. */
export interface CommandContextBase<O extends object = Record<string, unknown>> extends BaseContext {
  readonly kind: 'command';
  /** How the command was invoked: `'slash'` (an interaction) or `'text'` (a message). */
  readonly via: CommandVia;
  /** The interaction of a slash invocation (its `token` is a credential: never log it); none for text. */
  readonly interaction?: Interaction | undefined;
  /** The person who invoked the command. */
  readonly user: UserProfile;
  /** The board it was invoked on. */
  readonly boardId: string;
  /** Command and subcommand names. */
  readonly command: { readonly name: string; readonly subcommand: string | null };
  /** The converted and validated options (an instance of the options class). */
  readonly options: O;
  /** Whether an answer was sent (by `reply`, `followUp` or a returned body). */
  readonly replied: boolean;
  /**
   * Answers the invocation. Slash: the first answer is the interaction's reply, later ones are
   * follow-ups; after the interaction expired, it posts a normal message on the board instead and
   * logs that it did. The platform accepts 5 answers per interaction: a sixth throws
   * `BOARDBOT_INTERACTION_EXHAUSTED` (or, with `createBot({ exhaustedInteraction: 'send' })`, is
   * posted on the board instead). Text: a reply to the invoking message.
   */
  reply(body: ReplyBody): Promise<Message>;
  /** Another answer (slash: the platform accepts 5 in all, see {@link CommandContextBase.reply}; text: another reply). */
  followUp(body: ReplyBody): Promise<Message>;
  /**
   * Answers with text that arrives piece by piece (a model's answer): posts a placeholder as the
   * interaction's answer, then edits it as text arrives, continues it in follow-ups past the content
   * limit (on the board once the interaction has its 5 answers), and makes a final edit. See
   * docs/assistants.md for its guarantees and bounds.
   * @param source - an async iterable or a web stream of text
   * @param options - throttle (default one edit per second) and bounds
   */
  stream(source: StreamSource, options?: StreamOptions): Promise<StreamedAnswer>;
  /** Posts a normal message on the board (not tied to the invocation). */
  send(body: ReplyBody): Promise<Message>;
}

/** The context of a slash invocation: it has its interaction. */
export interface SlashCommandContext<O extends object = Record<string, unknown>> extends CommandContextBase<O> {
  readonly via: 'slash';
  /** The invocation as delivered (its `token` is a credential: never log it). */
  readonly interaction: Interaction;
}

/** The context of a text invocation (`!roll 20`): it has the message that invoked it. */
export interface TextCommandContext<O extends object = Record<string, unknown>> extends CommandContextBase<O> {
  readonly via: 'text';
  readonly interaction?: undefined;
  /** The message that invoked the command; answers reply to it. */
  readonly message: Message;
}

/**
 * What a command handler receives, invoked as a slash command or as text: narrow on `via` to reach
 * the interaction (`'slash'`) or the message (`'text'`).
 */
export type CommandContext<O extends object = Record<string, unknown>> = SlashCommandContext<O> | TextCommandContext<O>;

declare module '../kernel/context.js' {
  interface GuardedContexts {
    command: CommandContext;
  }
}
