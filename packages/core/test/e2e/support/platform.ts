import { type Bot, type BotOptions, createBot, MemoryPositionStore } from '@boardbot/core';
import { createEmulator, type Emulator, type EmulatorOptions } from '@boardbot/emulator';
import type { Board, Interaction, Message, UserProfile } from '@boardbot/protocol';
import { captureLogs, type LogCapture } from './logs.js';

/** An interaction with its answers, as the control API shows it. */
export interface InteractionView {
  interaction: Omit<Interaction, 'token'>;
  status: 'pending' | 'answered' | 'expired';
  answers: Message[];
}

/**
 * A seeded emulator on a loopback port, and the people's side of it through the real control API:
 * alice and bob, boards general and random, the dev-bot app.
 */
export class TestPlatform {
  private constructor(
    readonly emu: Emulator,
    readonly apiUrl: string,
    readonly controlUrl: string,
    readonly alice: UserProfile,
    readonly bob: UserProfile,
    readonly general: Board,
    readonly random: Board,
  ) {}

  /** Starts an emulator on 127.0.0.1, port 0. */
  static async start(options: EmulatorOptions = {}): Promise<TestPlatform> {
    const emu = await createEmulator({
      db: ':memory:',
      seed: true,
      logger: false,
      rateLimit: { requests: 100_000 },
      ...options,
    });
    const urls = await emu.listen({ host: '127.0.0.1', port: 0 });
    const state = await control<{ users: UserProfile[]; boards: Board[] }>(emu, urls.controlUrl, 'GET', '/state');
    const user = (name: string) => state.users.find((u) => u.username === name) as UserProfile;
    const board = (name: string) => state.boards.find((b) => b.name === name) as Board;
    return new TestPlatform(
      emu,
      urls.apiUrl,
      urls.controlUrl,
      user('alice'),
      user('bob'),
      board('general'),
      board('random'),
    );
  }

  /** The seeded app's token. */
  get token(): string {
    return this.emu.devToken;
  }

  /** Calls the control API and returns its JSON (throws on a non-2xx answer). */
  control<T>(method: string, path: string, body?: unknown): Promise<T> {
    return control<T>(this.emu, this.controlUrl, method, path, body);
  }

  /** A person invokes a slash command; resolves with the created interaction. */
  async invoke(
    user: UserProfile,
    board: Board,
    command: string,
    options: Record<string, string | number | boolean> = {},
    subcommand?: string,
  ): Promise<Omit<Interaction, 'token'>> {
    const body = { board_id: board.id, user_id: user.id, command, options, ...(subcommand ? { subcommand } : {}) };
    return (await this.control<{ interaction: Omit<Interaction, 'token'> }>('POST', '/interactions', body)).interaction;
  }

  /** Waits (server side) until the interaction has `answers` answers. */
  answers(interactionId: string, answers = 1, timeoutMs = 15_000): Promise<InteractionView> {
    return this.control('GET', `/interactions/${interactionId}/wait?answers=${answers}&timeout_ms=${timeoutMs}`);
  }

  /** Invokes a command and waits for its first answer's text. */
  async ask(user: UserProfile, board: Board, command: string, options: Record<string, string | number | boolean> = {}) {
    const interaction = await this.invoke(user, board, command, options);
    const view = await this.answers(interaction.id);
    return view.answers[0]?.content ?? null;
  }

  /** A person posts a message. */
  post(user: UserProfile, board: Board, content: string): Promise<Message> {
    return this.control('POST', `/boards/${board.id}/messages`, { user_id: user.id, content });
  }

  /** Messages of a board, newest first. */
  async messages(board: Board, limit = 100): Promise<Message[]> {
    return (await this.control<{ messages: Message[] }>('GET', `/boards/${board.id}/messages?limit=${limit}`)).messages;
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
    return this.emu.close();
  }
}

async function control<T>(emu: Emulator, base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${emu.adminKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Resolves once `check` returns true, polling on the event loop (no wall-clock assertion). */
export async function until(check: () => boolean | Promise<boolean>, what: string, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}
