import { ControlClient, type InteractionView, type OptionValue } from '@boardbot/emulator/control';
import type { Message } from '@boardbot/protocol';
import { eventuallyValue, type WaitOptions } from '@boardbot/test-support';

// What the CLI's tests ask of an emulator, as the people of its default seed, through the one
// control API client.

/** The seeded people's side of one emulator: alice on `general`, and the dev-bot app. */
export class Control {
  /** The control API client. */
  readonly client: ControlClient;

  /**
   * @param controlUrl - `{origin}/_emulator/v1`
   * @param adminKey - the admin key
   */
  constructor(controlUrl: string, adminKey: string) {
    this.client = new ControlClient({ url: controlUrl, adminKey });
  }

  /** The ids of alice and of the board `general` (the default seed). */
  async seedIds(): Promise<{ alice: string; general: string }> {
    const state = await this.client.state();
    const alice = state.users.find((u) => u.username === 'alice')?.id;
    const general = state.boards.find((b) => b.name === 'general')?.id;
    if (!alice || !general) throw new Error('the default seed is missing');
    return { alice, general };
  }

  /** The names of the commands the dev-bot app registered. */
  async registeredCommands(): Promise<string[]> {
    const apps = await this.client.apps();
    return apps.find((a) => a.name === 'dev-bot')?.commands.map((c) => c.name) ?? [];
  }

  /** Invokes a command as alice on `general` and waits up to `timeoutMs` for the first answer. */
  async invoke(command: string, options: Record<string, OptionValue> = {}, timeoutMs = 5000): Promise<InteractionView> {
    const { alice, general } = await this.seedIds();
    const interaction = await this.client.invoke({ board_id: general, user_id: alice, command, options });
    return this.client.wait(interaction.id, { answers: 1, timeoutMs });
  }

  /**
   * Waits until the dev-bot app has registered `command` (the bot is up: invoking before that would
   * reach no bot), then invokes it as alice until an answer comes, and returns that interaction.
   *
   * @param registration - how long the bot may take to come up
   */
  async firstAnswer(
    command: string,
    options: Record<string, OptionValue> = {},
    registration: WaitOptions = POLL,
  ): Promise<InteractionView> {
    await eventuallyValue(
      () => this.registeredCommands(),
      (names) => names.includes(command),
      registration,
    );
    return eventuallyValue(
      () => this.invoke(command, options),
      (view) => view.answers.length > 0,
      POLL,
    );
  }

  /** Every message of a board, oldest first (read page by page). */
  async allMessages(boardId: string): Promise<Message[]> {
    const all: Message[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await this.client.messages(boardId, before === undefined ? { limit: 100 } : { limit: 100, before });
      all.push(...page);
      if (page.length < 100) break;
      before = page.at(-1)?.seq;
    }
    return all.reverse();
  }

  /** Number of messages on `general`. */
  async messageCount(): Promise<number> {
    const { general } = await this.seedIds();
    return (await this.client.messages(general, { limit: 100 })).length;
  }
}

/**
 * How the CLI's tests poll the emulator: a bot process builds and starts for seconds, and one
 * invocation may itself wait for an answer, so a quarter second between tries is plenty.
 */
export const POLL: WaitOptions = { intervalMs: 250, timeoutMs: 30_000 };
