import type {
  BackfillMarks,
  BackfillPlace,
  BotEvent,
  BotEventSource,
  EventIntake,
  IntakeSink,
  SourceHost,
} from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { isRelayMessage, type ToBot, type ToParent } from './relay-messages.js';

/** The IPC channel to `boardbot dev`: the bot process's own `process` (`send` is there when it has one). */
export interface RelayChannel {
  send?: ((message: ToParent, callback: (error: Error | null) => void) => boolean) | undefined;
  /** The channel's handle: held while the source is fed, as a gateway connection would hold the process. */
  channel?: { ref(): void; unref(): void } | undefined;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/**
 * The event source of a bot run by `boardbot dev`: the events of the gateway connection the CLI holds
 * across reloads, received over the IPC channel, passed through the bot's intake (duplicates dropped,
 * a gap's missed messages read back) and acknowledged, each by its number, once its handlers ended.
 * The CLI moves the resume point past acknowledged events only, so an event this process took and
 * did not finish (paused before it, or abandoned at the stop timeout) is given to the next one.
 */
export class IpcSource implements BotEventSource, IntakeSink {
  readonly description = 'boardbot dev (the gateway connection of the CLI)';
  readonly gapMessage = 'gateway gap: dispatching missed messages';
  private host: SourceHost | undefined;
  private intake: EventIntake | undefined;
  /** The number of each event received, until it is acknowledged. */
  private readonly numbers = new WeakMap<BotEvent, number>();
  /** The event being received now: a gap it opens holds its acknowledgement. */
  private receiving: number | undefined;
  private readonly gaps = new Set<number>();
  private boards: Record<string, number> = {};
  /** Messages of an unfinished read-back that a process before this one handled, by board. */
  private readBack = new Map<string, Set<number>>();
  private readonly received = new Map<string, number>();
  private since = Date.now();
  private abandoned = false;
  private readonly sending = new Set<Promise<void>>();
  private readonly listener = (message: unknown) => this.onMessage(message);
  /** Resolves when `dev` starts feeding this process (after the one before it stopped). */
  private fed: (boards: number) => void = () => {};

  /** @param channel - the process's IPC channel to `boardbot dev` */
  constructor(private readonly channel: RelayChannel) {}

  /**
   * Listens on the channel, asks the CLI to feed it, and resolves once it is fed (the bot counts as
   * started then: the process before it has stopped, and events reach this one).
   */
  async start(host: SourceHost): Promise<{ boards: number }> {
    this.host = host;
    this.since = host.startedAt;
    this.intake = host.intake(this);
    this.channel.on('message', this.listener);
    // `dev` unrefs the channel so that it never keeps a stopped bot alive; while fed, it is the
    // bot's connection and keeps it running.
    this.channel.channel?.ref();
    const fed = new Promise<number>((resolve) => {
      this.fed = resolve;
    });
    await this.send({ type: 'boardbot:fed' });
    return { boards: await fed };
  }

  /** Takes no new event: what arrives from now on is the next process's. */
  async pause(): Promise<void> {
    this.channel.off('message', this.listener);
    this.channel.channel?.unref();
    this.intake?.close();
    this.host = undefined;
  }

  /** What ends from now on did not finish: it is not acknowledged, so the next process handles it. */
  abandon(): void {
    this.abandoned = true;
  }

  /** Waits until every acknowledgement is sent, then says so (the CLI then feeds the next process). */
  async close(): Promise<void> {
    await Promise.all(this.sending);
    await this.send({ type: 'boardbot:closed' });
  }

  live(): boolean {
    return this.host !== undefined;
  }

  backfillMarks(): BackfillMarks {
    const lastSeq = new Map(Object.entries(this.boards));
    for (const [board, seq] of this.received) lastSeq.set(board, Math.max(seq, lastSeq.get(board) ?? 0));
    return { lastSeq, since: this.since };
  }

  handled(message: Message): boolean {
    return (
      message.seq <= (this.boards[message.board_id] ?? 0) ||
      (this.readBack.get(message.board_id)?.has(message.seq) ?? false)
    );
  }

  ready(event: BotEvent): void {
    const n = this.numbers.get(event);
    // A gap holds its frame until the missed messages are handled (holdGap's release acknowledges it).
    if (n !== undefined && !this.gaps.has(n)) this.done(n);
    void this.host?.deliver(event);
  }

  skip(event: BotEvent): void {
    this.done(this.numbers.get(event));
  }

  async take(event: BotEvent, place?: BackfillPlace): Promise<void> {
    const n = this.numbers.get(event);
    const message = !event.unknown && event.name === 'message.create' ? event.data.message : undefined;
    if (message) this.received.set(message.board_id, Math.max(message.seq, this.received.get(message.board_id) ?? 0));
    const host = this.host;
    if (!host) return;
    const outcome = await host.deliver(event, place);
    if (outcome.abandoned) return;
    // A message read back after a gap has no number: the CLI is told it was handled, so that the next
    // process, if this one stops before the read-back ends, does not handle it again.
    if (n === undefined && message && place)
      this.tell({ type: 'boardbot:read-back', board: message.board_id, seq: message.seq });
    else this.done(n);
  }

  holdGap(): () => void {
    const n = this.receiving;
    if (n === undefined) return () => {};
    this.gaps.add(n);
    return () => {
      this.gaps.delete(n);
      this.done(n);
    };
  }

  private onMessage(message: unknown): void {
    if (!isRelayMessage<ToBot>(message) || !this.intake) return;
    if (message.type === 'boardbot:marks') {
      this.boards = message.boards;
      this.readBack = new Map(Object.entries(message.readBack).map(([board, seqs]) => [board, new Set(seqs)]));
      this.since = message.since;
      this.fed(message.boardCount);
      return;
    }
    if (message.type !== 'boardbot:event') return;
    if (message.n > 0) this.numbers.set(message.event, message.n);
    this.receiving = message.n;
    try {
      this.intake.receive(message.event);
    } finally {
      this.receiving = undefined;
    }
  }

  /** Acknowledges event `n`. */
  private done(n: number | undefined): void {
    if (n === undefined || n === 0) return;
    this.tell({ type: 'boardbot:done', n });
  }

  /** Says that something finished (unless the stop gave up on what was left); `close` waits for it. */
  private tell(message: ToParent): void {
    if (this.abandoned) return;
    const sent = this.send(message).catch(() => {});
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  private send(message: ToParent): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.channel.send) {
        reject(new Error('no IPC channel to boardbot dev'));
        return;
      }
      this.channel.send(message, (error) => (error ? reject(error) : resolve()));
    });
  }
}
