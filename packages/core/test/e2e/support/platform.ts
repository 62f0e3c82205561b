import { type Bot, type BotOptions, createBot, MemoryPositionStore } from '@boardbot/core';
import type { Emulator, EmulatorOptions } from '@boardbot/emulator';
import type {
  Board,
  ControlClient,
  InteractionView,
  Message,
  OptionValue,
  ShownInteraction,
  UserProfile,
} from '@boardbot/emulator/control';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { captureLogs, type LogCapture } from './logs.js';

/**
 * A seeded emulator on a loopback port, and the people's side of it through the real control API:
 * alice and bob, boards general and random, the dev-bot app.
 */
export class TestPlatform {
  readonly emu: Emulator;
  readonly apiUrl: string;
  /** The control API, as the people of the platform use it. */
  readonly control: ControlClient;
  readonly alice: UserProfile;
  readonly bob: UserProfile;
  readonly general: Board;
  readonly random: Board;

  private constructor(private readonly seeded: SeededEmulator) {
    this.emu = seeded.emu;
    this.apiUrl = seeded.apiUrl;
    this.control = seeded.control;
    ({ alice: this.alice, bob: this.bob, general: this.general, random: this.random } = seeded.seed);
  }

  /** Starts a seeded emulator (rate limit raised out of the way) on 127.0.0.1, port 0. */
  static async start(options: EmulatorOptions = {}): Promise<TestPlatform> {
    return new TestPlatform(await startSeededEmulator({ rateLimit: { requests: 100_000 }, ...options }));
  }

  /** The seeded app's token. */
  get token(): string {
    return this.emu.devToken;
  }

  /** A person invokes a slash command; resolves with the created interaction. */
  async invoke(
    user: UserProfile,
    board: Board,
    command: string,
    options: Record<string, OptionValue> = {},
    subcommand?: string,
  ): Promise<ShownInteraction> {
    const body = { board_id: board.id, user_id: user.id, command, options, ...(subcommand ? { subcommand } : {}) };
    return this.control.invoke(body);
  }

  /** Waits (server side) until the interaction has `answers` answers. */
  answers(interactionId: string, answers = 1, timeoutMs = 15_000): Promise<InteractionView> {
    return this.control.wait(interactionId, { answers, timeoutMs });
  }

  /** Invokes a command and waits for its first answer's text. */
  async ask(user: UserProfile, board: Board, command: string, options: Record<string, OptionValue> = {}) {
    const interaction = await this.invoke(user, board, command, options);
    const view = await this.answers(interaction.id);
    return view.answers[0]?.content ?? null;
  }

  /** A person posts a message. */
  post(user: UserProfile, board: Board, content: string): Promise<Message> {
    return this.control.postMessage(board.id, { user_id: user.id, content });
  }

  /** Messages of a board, newest first. */
  messages(board: Board, limit = 100): Promise<Message[]> {
    return this.control.messages(board.id, { limit });
  }

  /** A bot on this platform (signals off, logs captured), not started yet. */
  bot(options: Omit<BotOptions, 'token'> & { token?: string }): { bot: Bot; logs: LogCapture } {
    const logs = captureLogs();
    const bot = createBot({
      token: this.token,
      apiUrl: this.apiUrl,
      logger: logs.logger,
      handleSignals: false,
      // Tests keep their resume points in memory, never in a .boardbot/ of the repository.
      position: new MemoryPositionStore(),
      ...options,
    });
    return { bot, logs };
  }

  /** Closes the emulator (stop the bots first). */
  close(): Promise<void> {
    return this.seeded.close();
  }
}
