import { createEmulator, type Emulator, type EmulatorOptions, type EmulatorUrls } from '@boardbot/emulator';
import { type AppInfo, ControlClient } from '@boardbot/emulator/control';
import type { Board, Message, UserProfile } from '@boardbot/protocol';
import { Agent, fetch as undiciFetch } from 'undici';

// A real emulator on loopback for the tests of the packages that talk to it. This entry point is
// apart from the others, so a test that never starts an emulator does not load one.

/** The records of the emulator's default seed. */
export interface Seed {
  general: Board;
  random: Board;
  alice: UserProfile;
  bob: UserProfile;
  /** The seeded app, whose token is the emulator's `devToken`. */
  devBot: AppInfo;
}

/** A listening, seeded emulator, and the people's side of it through the control API. */
export interface SeededEmulator {
  emu: Emulator;
  urls: EmulatorUrls;
  /** `urls.apiUrl`, the app API's base URL. */
  apiUrl: string;
  /** The port it listens on (to start another on the same address after a restart). */
  port: number;
  seed: Seed;
  /** The dev-bot app's token. */
  token: string;
  /** The control API, as the people of the platform use it. */
  control: ControlClient;
  /**
   * An app API call as the dev-bot app, JSON both ways.
   * @returns the parsed answer (undefined for an empty one)
   * @throws Error on an answer that is not 2xx, with its status and body
   */
  app<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Every message of a board, newest first, page after page through the control API (no rate limit). */
  allMessages(boardId: string): Promise<Message[]>;
  /** Closes the emulator and its test clients' connections. */
  close(): Promise<void>;
}

/**
 * Starts an emulator in memory (unless `options.db` says otherwise) on 127.0.0.1, with the default
 * seed (people alice and bob, boards general and random, the app dev-bot) and no logs.
 *
 * @param options - emulator options over those defaults (a `devToken`, a `rateLimit`, a `db` file...)
 * @param port - a fixed port, to restart on the same address; 0 lets the system choose
 */
export async function startSeededEmulator(options: EmulatorOptions = {}, port = 0): Promise<SeededEmulator> {
  const emu = await createEmulator({ db: ':memory:', seed: true, logger: false, ...options });
  const urls = await emu.listen({ host: '127.0.0.1', port });
  // One connection pool per emulator: a later emulator on the same port must never be sent a request
  // on a kept-alive connection of this one.
  const agent = new Agent();
  const fetch = ((input: string, init: RequestInit) =>
    undiciFetch(input, { ...init, dispatcher: agent } as Parameters<typeof undiciFetch>[1])) as typeof globalThis.fetch;
  const control = new ControlClient({ url: urls.controlUrl, adminKey: emu.adminKey, fetch });
  const state = await control.state();
  const board = (name: string) => state.boards.find((b) => b.name === name) as Board;
  const user = (name: string) => state.users.find((u) => u.username === name) as UserProfile;
  return {
    emu,
    urls,
    apiUrl: urls.apiUrl,
    port: Number(new URL(urls.url).port),
    seed: {
      general: board('general'),
      random: board('random'),
      alice: user('alice'),
      bob: user('bob'),
      devBot: state.apps.find((a) => a.name === 'dev-bot') as AppInfo,
    },
    token: emu.devToken,
    control,
    async app<T>(method: string, path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = { authorization: `Bearer ${emu.devToken}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${urls.apiUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    async allMessages(boardId) {
      const out: Message[] = [];
      for (;;) {
        const before = out.at(-1)?.seq;
        const page = await control.messages(boardId, before === undefined ? { limit: 100 } : { limit: 100, before });
        if (page.length === 0) return out;
        out.push(...page);
      }
    },
    async close() {
      await emu.close();
      await agent.close();
    },
  };
}

/** An app made on the emulator for a host test: installed on a board of its own, where alice is a member. */
export interface InstalledApp {
  /** Its name on the platform, also its id in a host (`app<n>`). */
  name: string;
  id: string;
  board: Board;
  token: string;
  /** Its bot user, the author of its answers. */
  botUser: string;
}

/**
 * Makes `count` apps on a seeded emulator (`app0`, `app1`...), each installed on a board of its own
 * (`app<n>-board`) where alice is a member: the apps of the host tests.
 * @param seeded - the emulator
 * @param count - how many
 */
export async function installedApps(seeded: SeededEmulator, count: number): Promise<InstalledApp[]> {
  const apps: InstalledApp[] = [];
  for (let i = 0; i < count; i++) {
    const name = `app${i}`;
    const created = await seeded.control.createApp({ name });
    const board = await seeded.control.createBoard({ name: `${name}-board` });
    await seeded.control.setMember(board.id, seeded.seed.alice.id);
    await seeded.control.install(created.app.id, board.id);
    apps.push({ name, id: created.app.id, board, token: created.token, botUser: created.app.bot_user_id });
  }
  return apps;
}
