import { createEmulator, type Emulator, type EmulatorOptions } from '@boardbot/emulator';
import { type Board, type Message, type UserProfile } from '@boardbot/protocol';
import { expect } from 'vitest';
import { appApiChecker, controlApiChecker } from './openapi-checker.js';

export const ADMIN_KEY = 'test-admin-key';
export const DEV_TOKEN = 'dev-token';

/** A controllable clock for expiry, TTLs and rate windows. */
export class FakeClock {
  constructor(public ms = Date.parse('2026-11-21T10:00:00.000Z')) {}
  readonly now = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** An answer of the emulator. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read freely
  json: any;
}

/** What to send. */
export interface Send {
  /** An object is sent as JSON; a string is sent as is (set the content type in `headers`). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Operation ids of every app API response checked against the OpenAPI document in this process. */
export const checkedOperations = new Set<string>();

/** Seeded ids. */
export interface Seed {
  general: Board;
  random: Board;
  alice: UserProfile;
  bob: UserProfile;
  devBot: { id: string; bot_user_id: string };
}

/** A {@link Harness} whose emulator reads the time from `clock`, so a test moves time by hand. */
export type ClockedHarness = Harness & { readonly clock: FakeClock };

/** An emulator in memory with helpers for both APIs; every app API answer is checked against OpenAPI. */
export class Harness {
  private constructor(
    readonly emu: Emulator,
    readonly seed: Seed,
  ) {}

  static async start(options: EmulatorOptions = {}): Promise<Harness> {
    const emu = await createEmulator({ db: ':memory:', logger: false, adminKey: ADMIN_KEY, ...options });
    const h = new Harness(emu, undefined as unknown as Seed);
    const state = (await h.ctl('GET', '/state')).json;
    // biome-ignore lint/suspicious/noExplicitAny: the state's records are read freely
    const byName = (list: any[], n: string) => list.find((x) => x.name === n || x.username === n);
    (h as { seed: Seed }).seed = {
      general: byName(state.boards, 'general'),
      random: byName(state.boards, 'random'),
      alice: byName(state.users, 'alice'),
      bob: byName(state.users, 'bob'),
      devBot: byName(state.apps, 'dev-bot'),
    };
    return h;
  }

  /**
   * Starts a harness on a fresh {@link FakeClock} of its own (each call, its own clock: nothing is
   * shared between tests), for expiry, TTLs and rate windows.
   */
  static async onFakeClock(options: EmulatorOptions = {}): Promise<ClockedHarness> {
    const clock = new FakeClock();
    return Object.assign(await Harness.start({ now: clock.now, ...options }), { clock });
  }

  /** A raw request; app API answers are checked against the OpenAPI document. */
  async request(method: string, url: string, send: Send = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...send.headers };
    let payload: string | undefined;
    if (typeof send.body === 'string') payload = send.body;
    else if (send.body !== undefined) {
      payload = JSON.stringify(send.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.emu.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    // Every answer of a documented API is checked against its OpenAPI document.
    const checked = url.startsWith('/api/v1')
      ? { checker: appApiChecker, seen: checkedOperations }
      : url.startsWith('/_emulator/v1')
        ? { checker: controlApiChecker, seen: undefined }
        : undefined;
    if (checked) {
      const answer = { method, url, status: res.statusCode, headers: res.headers, body: res.body };
      const { operationId, problems } = checked.checker.problems(answer);
      expect(problems, `${method} ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`).toEqual([]);
      if (operationId) checked.seen?.add(operationId);
    }
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text: res.body, json };
  }

  /** An app API request with a bearer token (`null`: no Authorization header). */
  api(method: string, path: string, token: string | null = DEV_TOKEN, send: Send = {}): Promise<Answer> {
    const headers = { ...send.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    return this.request(method, `/api/v1${path}`, { ...send, headers });
  }

  /** A control API request with the admin key. */
  ctl(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.request(method, `/_emulator/v1${path}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      ...(body === undefined ? {} : { body }),
    });
  }

  /** Sends a message as dev-bot and returns it. */
  async send(boardId: string, body: unknown, token = DEV_TOKEN): Promise<Message> {
    const r = await this.api('POST', `/boards/${boardId}/messages`, token, { body });
    expect(r.status, r.text).toBe(200);
    return r.json as Message;
  }

  /** Posts a message as a person through the control API. */
  async say(boardId: string, userId: string, content: string): Promise<Message> {
    const r = await this.ctl('POST', `/boards/${boardId}/messages`, { user_id: userId, content });
    expect(r.status, r.text).toBe(200);
    return r.json as Message;
  }

  /** Creates another app (installed on `boardIds`) and returns its id, bot user and token. */
  async createApp(name: string, boardIds: string[] = []): Promise<{ id: string; bot_user_id: string; token: string }> {
    const r = await this.ctl('POST', '/apps', { name });
    expect(r.status, r.text).toBe(201);
    for (const b of boardIds) expect((await this.ctl('PUT', `/apps/${r.json.app.id}/installs/${b}`)).status).toBe(200);
    return { id: r.json.app.id, bot_user_id: r.json.app.bot_user_id, token: r.json.token };
  }

  /** Registers commands for dev-bot. */
  async registerCommands(commands: unknown[], token = DEV_TOKEN): Promise<void> {
    const r = await this.api('PUT', '/app/commands', token, { body: commands });
    expect(r.status, r.text).toBe(200);
  }

  /** Invokes a command as a person; returns the interaction id and the token the app received. */
  async invoke(body: Record<string, unknown>): Promise<{ id: string; token: string }> {
    const r = await this.ctl('POST', '/interactions', body);
    expect(r.status, r.text).toBe(201);
    const id = r.json.interaction.id as string;
    const appId = r.json.interaction.app_id as string;
    // The token reaches the app only through its event log: read it there, as a replay gives it.
    const row = this.emu.platform.store.events
      .after(appId, 0, 100_000)
      .filter((e) => e.name === 'interaction.create')
      .map((e) => JSON.parse(this.emu.platform.replayData(e.name, e.data)).interaction)
      .find((i: { id: string }) => i.id === id);
    return { id, token: row.token };
  }

  /** Every message of a board (newest first), through the control API. */
  async messages(boardId: string): Promise<Message[]> {
    const out: Message[] = [];
    let before: number | undefined;
    for (;;) {
      const q = before === undefined ? '?limit=100' : `?limit=100&before=${before}`;
      const page = (await this.ctl('GET', `/boards/${boardId}/messages${q}`)).json.messages as Message[];
      if (page.length === 0) return out;
      out.push(...page);
      before = page[page.length - 1]?.seq;
    }
  }

  close(): Promise<void> {
    return this.emu.close();
  }
}
