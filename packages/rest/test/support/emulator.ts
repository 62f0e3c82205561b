import { createEmulator, type Emulator } from '@boardbot/emulator';
import type { Board, Interaction, Message, UserProfile } from '@boardbot/protocol';
import { request } from 'undici';

/** Token of the seeded `dev-bot` in these tests. */
export const DEV_TOKEN = 'rest-test-dev-token-0123456789';

/** A running emulator on loopback with its seeded records and a control-API helper. */
export interface EmulatorFixture {
  emu: Emulator;
  apiUrl: string;
  controlUrl: string;
  general: Board;
  random: Board;
  alice: UserProfile;
  bob: UserProfile;
  /** Calls the control API with the admin key; throws on a non-2xx answer. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Every message of a board through the control API (rate-limit free), newest first. */
  allMessages(boardId: string): Promise<Message[]>;
  close(): Promise<void>;
}

/**
 * Starts an emulator in memory on 127.0.0.1, port 0, seeded (users alice and bob, boards general and
 * random, app dev-bot).
 * @param rateLimit - requests per window and window length
 */
export async function startEmulator(rateLimit = { requests: 100_000, windowMs: 1000 }): Promise<EmulatorFixture> {
  const emu = await createEmulator({ db: ':memory:', seed: true, devToken: DEV_TOKEN, rateLimit, logger: false });
  const { apiUrl, controlUrl } = await emu.listen({ host: '127.0.0.1', port: 0 });
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await request(`${controlUrl}${path}`, {
      method: method as 'GET',
      headers: {
        authorization: `Bearer ${emu.adminKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`control ${method} ${path}: ${res.statusCode} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const state = await control<{ users: UserProfile[]; boards: Board[] }>('GET', '/state');
  const board = (name: string) => state.boards.find((b) => b.name === name) as Board;
  const user = (name: string) => state.users.find((u) => u.username === name) as UserProfile;
  return {
    emu,
    apiUrl,
    controlUrl,
    general: board('general'),
    random: board('random'),
    alice: user('alice'),
    bob: user('bob'),
    control,
    async allMessages(boardId) {
      const out: Message[] = [];
      let before: number | undefined;
      for (;;) {
        const q = before === undefined ? '?limit=100' : `?limit=100&before=${before}`;
        const { messages } = await control<{ messages: Message[] }>('GET', `/boards/${boardId}/messages${q}`);
        if (messages.length === 0) return out;
        out.push(...messages);
        before = (messages.at(-1) as Message).seq;
      }
    },
    close: () => emu.close(),
  };
}

/**
 * Opens the app's gateway stream (a raw SSE read) and resolves with the first `interaction.create`
 * interaction, token included: the control API never returns tokens, only the app's stream does.
 * @param apiUrl - the app API base URL
 * @param token - the app token
 * @param trigger - invokes the command once the stream is ready
 */
export async function interactionFromGateway(
  apiUrl: string,
  token: string,
  trigger: () => Promise<unknown>,
): Promise<Interaction> {
  const controller = new AbortController();
  const res = await request(`${apiUrl}/gateway`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  let buffer = '';
  let triggered = false;
  try {
    for await (const chunk of res.body) {
      buffer += (chunk as Buffer).toString('utf8');
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event === 'ready' && !triggered) {
          triggered = true;
          await trigger();
        }
        if (event === 'interaction.create' && data)
          return (JSON.parse(data) as { interaction: Interaction }).interaction;
        end = buffer.indexOf('\n\n');
      }
    }
    throw new Error('gateway stream ended before interaction.create');
  } finally {
    controller.abort();
    await res.body.dump().catch(() => undefined);
  }
}
