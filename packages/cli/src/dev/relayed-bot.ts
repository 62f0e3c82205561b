import { BotProcess, type BotProcessOptions } from './bot-process.js';
import type { GatewayRelay } from './gateway-relay.js';
import { isRelayMessage, type ToParent } from './relay-messages.js';

/** Options of {@link RelayedBot}: each bot process's, and where the gateway connection comes from. */
export interface RelayedBotOptions extends Omit<BotProcessOptions, 'onMessage' | 'onUnexpectedExit'> {
  /** Makes the gateway connection the first time a bot process asks to be fed (it connects it later). */
  relay(): Promise<GatewayRelay>;
  /**
   * Told when a bot process exits by itself.
   * @param before - whether it had not started yet while the one before it still runs (it goes on)
   */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null, before: boolean) => void;
}

/** How a started bot process gets its events. */
type Mode = 'fed' | 'own' | 'exited';

/**
 * The bot of `boardbot dev`, reloaded without dropping its gateway connection. `dev` (this process)
 * holds the connection and the resume point ({@link GatewayRelay}) and feeds the bot process of the
 * moment over IPC. A reload starts a new process beside the running one (it loads the new code and
 * starts while the old one still handles events); once it asks to be fed, the old one is fed no
 * more, finishes the events it took (within its stop timeout) and exits, and the new one is fed
 * from the first event not acknowledged, so each is handled once, in order. A new process that fails
 * to start leaves the old one running. A bot that opens its own gateway (run from its entry, or with
 * a source of its own) is started only once the one before it stopped, and the relay is closed.
 */
export class RelayedBot {
  private current: { bot: BotProcess; mode: 'fed' | 'own' } | undefined;
  private relay: GatewayRelay | undefined;
  private starts = 0;
  private connectionsBefore = 0;
  /** Called when the bot process whose source closed says so (its last acknowledgement was heard). */
  private readonly closing = new Map<BotProcess, () => void>();

  /** @param options - see {@link RelayedBotOptions} */
  constructor(private readonly options: RelayedBotOptions) {}

  /** Whether a bot process is running. */
  get running(): boolean {
    return this.current?.bot.running ?? false;
  }

  /** How many bot processes were started. */
  get startCount(): number {
    return this.starts;
  }

  /** The running bot process's id. */
  get pid(): number | undefined {
    return this.current?.bot.pid;
  }

  /** How many gateway connections `dev` opened (reconnections included): one across any number of reloads. */
  get connections(): number {
    return this.connectionsBefore + (this.relay?.connections ?? 0);
  }

  /** Events the gateway connection holds that no bot process acknowledged yet. */
  get pending(): number {
    return this.relay?.pending ?? 0;
  }

  /**
   * Starts a bot process on the latest build and, once it asks for its events, puts it in the place of
   * the running one.
   * @returns whether the new process took over (false: it exited first, and the old one goes on)
   */
  async restart(): Promise<boolean> {
    let settle: (mode: Mode) => void = () => {};
    const mode = new Promise<Mode>((resolve) => {
      settle = resolve;
    });
    const before = this.running;
    const bot: BotProcess = new BotProcess({
      ...this.options,
      args: [...(this.options.args ?? []), '--dev-relay'],
      onMessage: (message) => this.heard(bot, message, settle),
      onUnexpectedExit: (code, signal) => {
        settle('exited');
        const current = this.current?.bot === bot;
        if (current) {
          this.current = undefined;
          this.relay?.unfeed();
        }
        this.options.onUnexpectedExit?.(code, signal, !current && before);
      },
    });
    bot.start();
    this.starts++;
    const how = await mode;
    if (how === 'exited') return false;
    // The old process is fed no more: what it took it finishes (its acknowledgements arrive before it
    // has exited); what it did not is the new one's.
    this.relay?.unfeed();
    const old = this.current?.bot;
    this.current = undefined;
    // The new one is fed once the old one's source closed (its runs ended, its last acknowledgement
    // heard): the rest of its stop (providers, log) goes on beside, and it has exited before this returns.
    const stopping = old ? this.stopOld(old) : Promise.resolve();
    if (old) await Promise.race([new Promise<void>((r) => this.closing.set(old, r)), stopping]);
    try {
      if (!bot.running) return false;
      return await this.take(bot, how);
    } finally {
      await stopping;
    }
  }

  /** Puts the new process in place, fed by the relay or, connecting itself, once the relay closed. */
  private async take(bot: BotProcess, how: 'fed' | 'own'): Promise<boolean> {
    if (how === 'own') {
      await this.closeRelay();
      this.current = { bot, mode: 'own' };
      bot.send({ type: 'boardbot:go' });
      return true;
    }
    this.relay ??= await this.options.relay();
    if (!this.relay.open) await this.relay.connect();
    this.current = { bot, mode: 'fed' };
    this.relay.feed({ send: (message) => bot.send(message) });
    return true;
  }

  /** Stops the bot process (its handlers finish), then closes the gateway connection and saves the resume point. */
  async stop(): Promise<void> {
    this.relay?.unfeed();
    await this.current?.bot.stop();
    this.current = undefined;
    await this.closeRelay();
  }

  private async stopOld(old: BotProcess): Promise<void> {
    try {
      await old.stop();
    } finally {
      this.closing.delete(old);
    }
  }

  private heard(bot: BotProcess, message: unknown, settle: (mode: Mode) => void): void {
    if (!isRelayMessage<ToParent>(message)) return;
    if (message.type === 'boardbot:closed') this.closing.get(bot)?.();
    if (message.type === 'boardbot:fed') settle('fed');
    else if (message.type === 'boardbot:own-gateway') settle('own');
    else if (message.type === 'boardbot:done') this.relay?.done(message.n);
    else if (message.type === 'boardbot:read-back') this.relay?.readBackDone(message.board, message.seq);
  }

  private async closeRelay(): Promise<void> {
    const relay = this.relay;
    this.relay = undefined;
    if (!relay) return;
    this.connectionsBefore += relay.connections;
    await relay.close();
  }
}
