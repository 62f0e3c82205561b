import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Bot, type BotGateway, type BotOptions, createBot } from '@boardbot/core';
import { createEmulator, type Emulator } from '@boardbot/emulator';
import type { App, Interaction, Message, ReadyEvent, UserProfile } from '@boardbot/protocol';

/** A gateway that delivers what the bench emits, in process, so only the runtime is measured. */
export class InProcessGateway extends EventEmitter implements BotGateway {
  constructor(private readonly ready: ReadyEvent) {
    super();
  }
  async connect() {
    this.emit('dispatch', { name: 'ready', id: '0', data: this.ready });
    return this.ready;
  }
  async close() {}
}

/** An emulator that serves a bot's start(), and bots whose events the bench emits itself. */
export interface InProcessRig {
  /** The emulator, when it runs in this process (not when the rig was given another's `apiUrl`). */
  emulator: Emulator | undefined;
  app: App;
  boardIds: string[];
  /** A started bot on an in-process gateway. */
  bot(options: Omit<BotOptions, 'token' | 'apiUrl' | 'gateway'>): Promise<{ bot: Bot; gateway: InProcessGateway }>;
  /** A fresh `interaction.create` payload for `/roll sides:20` on a board. */
  interaction(boardId?: string): Interaction;
  /** A fresh webhook `message.create` payload (no author profile to read) on a board. */
  message(boardId?: string, content?: string): Message;
  close(): Promise<void>;
}

/**
 * Starts the rig.
 * @param external - the API URL of an emulator running elsewhere (another process), instead of one in
 *   this process
 */
export async function inProcessRig(external?: { apiUrl: string }): Promise<InProcessRig> {
  const emulator = external ? undefined : await createEmulator({ db: ':memory:', logger: false });
  const apiUrl = external?.apiUrl ?? (await (emulator as Emulator).listen({ host: '127.0.0.1', port: 0 })).apiUrl;
  const get = async <T>(path: string) =>
    (await (await fetch(`${apiUrl}${path}`, { headers: { authorization: 'Bearer dev-token' } })).json()) as T;
  const app = await get<App>('/app');
  const boardIds = (await get<{ boards: { id: string }[] }>('/boards')).boards.map((b) => b.id);
  const now = new Date().toISOString();
  const user: UserProfile = {
    id: randomUUID(),
    username: 'alice',
    display_name: 'Alice',
    avatar_url: null,
    is_bot: false,
    created_at: now,
  };
  const seqs = new Map<string, number>();
  const first = boardIds[0] as string;
  return {
    emulator,
    app,
    boardIds,
    async bot(options) {
      let gateway: InProcessGateway | undefined;
      const bot = createBot({
        token: 'dev-token',
        apiUrl,
        // The benches emit thousands of events on a board at once, whose messages exist only in this
        // gateway: above them, so none is set aside by its board's share of the intake to be read back
        // over REST (where it would not be found, and would count as deleted).
        maxPendingEvents: 100_000,
        ...options,
        gateway: () => {
          gateway = new InProcessGateway({ type: 'ready', app, board_ids: boardIds, resumed: false });
          return gateway;
        },
      });
      await bot.start();
      return { bot, gateway: gateway as InProcessGateway };
    },
    interaction: (boardId = first) => ({
      id: randomUUID(),
      type: 'command',
      token: 'x'.repeat(43),
      app_id: app.id,
      board_id: boardId,
      user,
      command: { name: 'roll', subcommand: null, options: { sides: 20 } },
      created_at: now,
      expires_at: new Date(Date.now() + 900_000).toISOString(),
    }),
    message: (boardId = first, content = 'roll 20') => {
      const seq = (seqs.get(boardId) ?? 0) + 1;
      seqs.set(boardId, seq);
      return {
        id: randomUUID(),
        board_id: boardId,
        author: null,
        kind: 'default',
        content,
        media: null,
        embeds: null,
        webhook_name: 'bench',
        reply_to: null,
        seq,
        created_at: now,
        edited_at: null,
        deleted_at: null,
        interaction: null,
      };
    },
    close: async () => {
      await emulator?.close();
    },
  };
}

export { median } from './measure.js';
