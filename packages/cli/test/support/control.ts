// A small client of the emulator's control API (docs/control-api.md), over real HTTP.

/** The parts of an interaction view the tests read. */
export interface InteractionView {
  status: string;
  answers: { content: string | null }[];
}

/** Talks to one emulator's control API as its admin. */
export class Control {
  /**
   * @param controlUrl - `{origin}/_emulator/v1`
   * @param adminKey - the admin key
   */
  constructor(
    private readonly controlUrl: string,
    private readonly adminKey: string,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.controlUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The ids of alice and of the board `general` (the default seed). */
  async seedIds(): Promise<{ alice: string; general: string }> {
    const state = await this.call<{
      users: { id: string; username: string }[];
      boards: { id: string; name: string }[];
    }>('GET', '/state');
    const alice = state.users.find((u) => u.username === 'alice')?.id;
    const general = state.boards.find((b) => b.name === 'general')?.id;
    if (!alice || !general) throw new Error('the default seed is missing');
    return { alice, general };
  }

  /** The names of the commands the dev-bot app registered. */
  async registeredCommands(): Promise<string[]> {
    const { apps } = await this.call<{ apps: { name: string; commands: { name: string }[] }[] }>('GET', '/apps');
    return apps.find((a) => a.name === 'dev-bot')?.commands.map((c) => c.name) ?? [];
  }

  /** Invokes a command as alice on `general` and waits up to `timeoutMs` for the first answer. */
  async invoke(command: string, options: Record<string, unknown> = {}, timeoutMs = 5000): Promise<InteractionView> {
    const { alice, general } = await this.seedIds();
    const { interaction } = await this.call<{ interaction: { id: string } }>('POST', '/interactions', {
      board_id: general,
      user_id: alice,
      command,
      options,
    });
    return this.call<InteractionView>('GET', `/interactions/${interaction.id}/wait?answers=1&timeout_ms=${timeoutMs}`);
  }

  /** Number of messages on `general`. */
  async messageCount(): Promise<number> {
    const { general } = await this.seedIds();
    const { messages } = await this.call<{ messages: unknown[] }>('GET', `/boards/${general}/messages?limit=100`);
    return messages.length;
  }
}

/** Retries `attempt` until it returns a value that `done` accepts, or `tries` run out. */
export async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, tries = 40): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    try {
      last = await attempt();
      if (done(last)) return last;
    } catch {
      // not ready yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`gave up waiting; last value: ${JSON.stringify(last)}`);
}
