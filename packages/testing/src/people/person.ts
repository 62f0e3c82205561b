import {
  ControlApiError,
  type ControlClient,
  type PersonRole,
  type ShownInteraction,
} from '@boardbot/emulator/control';
import type { Embed, Message, OptionValue, UserProfile } from '@boardbot/protocol';
import type { TestBot, WaitOptions } from '../bot/test-bot.js';
import { InvocationRejectedError, TestOptionsError } from '../errors.js';
import type { Directory } from '../platform/directory.js';
import { short } from '../report/message-filter.js';

export type { PersonRole } from '@boardbot/emulator/control';

/** Options of `platform.person(username, options)`. */
export interface PersonOptions {
  /** Display name of a person the harness creates. @defaultValue the username, capitalised */
  displayName?: string;
  /**
   * Role on every board the person acts on. @defaultValue none: existing members keep theirs, people
   * who are not members join as `member`
   */
  role?: PersonRole;
}

/** What a person posts: text, or content and embeds. */
export type MessageBody = string | { content?: string; embeds?: Embed[] };

/** Where a person acts. */
export interface WhereOptions {
  /** Board name. @defaultValue `'general'` (or the platform's `board` option) */
  board?: string;
}

/** Options of {@link Person.invoke}. */
export interface InvokeOptions extends WhereOptions, WaitOptions {}

/** A message reference: a `Message`, or its id and board id. */
export type MessageOnBoard = { readonly id: string; readonly board_id: string };

/** What a person needs from the platform (wired by `createTestPlatform`). */
export interface PersonDeps {
  control: ControlClient;
  directory: Directory;
  bot: TestBot;
  defaultBoard: string;
}

/**
 * Someone on the platform: says things, replies, edits and deletes their messages, and invokes the
 * bot's slash commands, all through the emulator's control API over real HTTP. A person who does
 * not exist yet is created on first use, and joins each board the first time they act on it.
 */
export class Person {
  private profilePromise: Promise<UserProfile> | undefined;
  private readonly joined = new Map<string, Promise<void>>();

  /**
   * @param username - the person's username (`^[a-z0-9_.-]{1,32}$`)
   * @param options - display name and role
   * @param deps - the platform's parts
   */
  constructor(
    readonly username: string,
    private readonly options: PersonOptions,
    private readonly deps: PersonDeps,
  ) {}

  /** The person's profile (created on the platform on first use). */
  profile(): Promise<UserProfile> {
    this.profilePromise ??= this.resolveProfile();
    return this.profilePromise;
  }

  /**
   * Posts a message.
   * @param body - text, or content and embeds
   * @param options - board
   * @returns the stored message
   */
  async say(body: MessageBody, options: WhereOptions = {}): Promise<Message> {
    const { boardId, userId } = await this.on(options.board);
    return this.deps.control.postMessage(boardId, { user_id: userId, ...toBody(body) });
  }

  /**
   * Replies to a message (threaded with `replyTo`), on that message's board.
   * @param to - the message replied to
   * @param body - text, or content and embeds
   */
  async reply(to: MessageOnBoard, body: MessageBody): Promise<Message> {
    const { userId } = await this.onBoardId(to.board_id);
    return this.deps.control.postMessage(to.board_id, { user_id: userId, ...toBody(body), replyTo: to.id });
  }

  /**
   * Edits a message (the person's own, as on the platform).
   * @param message - the message
   * @param content - its new text
   */
  edit(message: MessageOnBoard, content: string): Promise<Message> {
    return this.deps.control.editMessage(message.board_id, message.id, content);
  }

  /** Deletes a message (idempotent). */
  delete(message: MessageOnBoard): Promise<void> {
    return this.deps.control.deleteMessage(message.board_id, message.id);
  }

  /**
   * Invokes a slash command and waits for the bot's first answer. `command` is what a person types:
   * `'roll'`, `'/roll'`, or `'poll create'` for a subcommand. Later answers (follow-ups) are awaited
   * with `platform.bot.nextMessage({ interaction: answer.interaction!.id })`.
   *
   * @param command - command, optionally followed by its subcommand
   * @param options - option values, e.g. `{ sides: 20 }`
   * @param settings - board and timeout
   * @returns the answer (a message of kind `interaction_response`)
   * @throws InvocationRejectedError when the platform refuses the invocation (bad option values)
   * @throws WaitTimeoutError when the bot does not answer in time, with what it did instead
   */
  async invoke(
    command: string,
    options: Record<string, OptionValue> = {},
    settings: InvokeOptions = {},
  ): Promise<Message> {
    const interaction = await this.start(command, options, settings);
    const what = `/${[interaction.command.name, interaction.command.subcommand].filter(Boolean).join(' ')}`;
    const shown = Object.entries(options)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(' ');
    const where = this.deps.directory.boardName(interaction.board_id) ?? short(interaction.board_id);
    const expectation = `the bot to answer ${what}${shown ? ` ${shown}` : ''} (${this.username} on ${where})`;
    return this.deps.bot.next('message.create', { interaction: interaction.id }, settings, expectation);
  }

  /**
   * Invokes a slash command without waiting for an answer (for commands answered later, or not at
   * all); await answers with `platform.bot.nextMessage({ interaction })`.
   *
   * @returns the interaction, as the platform shows it (without its token)
   */
  async start(
    command: string,
    options: Record<string, OptionValue> = {},
    settings: WhereOptions = {},
  ): Promise<ShownInteraction> {
    const { name, subcommand } = parseCommand(command);
    const { boardId, userId } = await this.on(settings.board);
    try {
      return await this.deps.control.invoke({
        board_id: boardId,
        user_id: userId,
        command: name,
        ...(subcommand === undefined ? {} : { subcommand }),
        options,
      });
    } catch (error) {
      // CONTRACT (docs/control-api.md): an invocation the registered options refuse is a 400.
      if (error instanceof ControlApiError && error.status === 400) throw new InvocationRejectedError(error);
      throw error;
    }
  }

  /**
   * Makes the person a member of a board with a role (or changes their role).
   * @param board - board name
   * @param role - the role @defaultValue the person's `role` option, else `member`
   */
  async join(board: string, role: PersonRole = this.options.role ?? 'member'): Promise<void> {
    const [{ id: boardId }, { id: userId }] = await Promise.all([this.deps.directory.board(board), this.profile()]);
    await this.deps.control.setMember(boardId, userId, role);
    this.joined.set(boardId, Promise.resolve());
  }

  private async on(board: string | undefined): Promise<{ boardId: string; userId: string }> {
    const { id } = await this.deps.directory.board(board ?? this.deps.defaultBoard);
    return this.onBoardId(id);
  }

  private async onBoardId(boardId: string): Promise<{ boardId: string; userId: string }> {
    const user = await this.profile();
    let joining = this.joined.get(boardId);
    if (!joining) {
      joining = this.ensureMember(boardId, user.id);
      this.joined.set(boardId, joining);
      joining.catch(() => this.joined.delete(boardId));
    }
    await joining;
    return { boardId, userId: user.id };
  }

  private async ensureMember(boardId: string, userId: string): Promise<void> {
    const members = await this.deps.control.members(boardId);
    const current = members.find((m) => m.user.id === userId);
    const wanted = this.options.role;
    if (current && (wanted === undefined || current.role === wanted)) return;
    await this.deps.control.setMember(boardId, userId, wanted ?? 'member');
  }

  private async resolveProfile(): Promise<UserProfile> {
    const known = await this.deps.directory.user(this.username);
    if (known) return known;
    const displayName = this.options.displayName ?? this.username.charAt(0).toUpperCase() + this.username.slice(1);
    const created = await this.deps.control.createUser({ username: this.username, display_name: displayName });
    this.deps.directory.addUser(created);
    return created;
  }
}

function toBody(body: MessageBody): { content?: string; embeds?: Embed[] } {
  return typeof body === 'string' ? { content: body } : body;
}

/** `'/poll create'` → `{ name: 'poll', subcommand: 'create' }`. */
export function parseCommand(command: string): { name: string; subcommand?: string } {
  const words = command.trim().replace(/^\//, '').split(/\s+/);
  const [name, subcommand, ...rest] = words;
  if (!name || rest.length > 0) {
    throw new TestOptionsError(
      `"${command}" is not a command: give its name, optionally followed by one subcommand ('poll create').`,
    );
  }
  return subcommand === undefined ? { name } : { name, subcommand };
}
