import type { BotEvent, Position, PositionKey, PositionStore } from '@boardbot/core';
import { GatewayClient } from '@boardbot/gateway';
import { silentLogger } from '@boardbot/protocol/runtime';
import type { ToBot } from './relay-messages.js';

/** Where the relay feeds events: the bot process that handles them now. */
export interface RelayTarget {
  send(message: ToBot): void;
}

/** Options of {@link GatewayRelay}. */
export interface GatewayRelayOptions {
  /** The app's token. */
  token: string;
  /** The app API's base URL (with the app's id, it names the resume point). */
  apiUrl: string;
  /** The app's id. */
  appId: string;
  /** Where the resume point is kept: the store `boardbot start` reads, so either resumes the other. */
  positions: PositionStore;
  /** Hears what the relay has to say (a dropped connection; it stopped, or went on, reading the gateway). */
  log: (line: string) => void;
  /** Hears where the connection resumed, once it is open. */
  out: (line: string) => void;
  /** How long a moved resume point waits before it is saved (saves are batched). @defaultValue 200 */
  flushMs?: number;
  /** Events received and not acknowledged past which the relay stops reading. @defaultValue 10_000 */
  maxPending?: number;
}

/** Defaults of {@link GatewayRelayOptions}. */
export const DEFAULT_GATEWAY_RELAY_OPTIONS = {
  flushMs: 200,
  maxPending: 10_000,
} as const satisfies Required<Pick<GatewayRelayOptions, 'flushMs' | 'maxPending'>>;

/** One gateway event in the relay's line, numbered in arrival order. */
interface Entry {
  n: number;
  event: BotEvent;
  done: boolean;
}

/**
 * The bot's gateway connection, held by `boardbot dev` across reloads: it opens once (after the stored
 * resume point), numbers each event, and feeds it to the bot process of the moment over IPC. The
 * resume point moves past an event only once it and every event before it were acknowledged (their
 * handlers ended), and is saved where `boardbot start` keeps it. Between two processes nothing is
 * fed: the events wait in the line, and the next process gets every unacknowledged one, in order.
 */
export class GatewayRelay {
  private readonly options: GatewayRelayOptions & Required<Pick<GatewayRelayOptions, 'flushMs' | 'maxPending'>>;
  private readonly key: PositionKey;
  private gateway: GatewayClient | undefined;
  // The events in arrival order, numbered one after the other, held from `head` on (those before it
  // are passed, dropped in batches): an acknowledgement finds its event by number, and 10,000 drain in linear time.
  private line: Entry[] = [];
  private head = 0;
  private next = 1;
  private target: RelayTarget | undefined;
  private lastReady: BotEvent | undefined;
  private position: Position = { eventId: undefined, boards: {}, savedAt: Date.now() };
  private saved = true;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private opens = 0;
  private boardCount = 0;
  /** Messages read back after a gap and handled, by board, until the gap's `ready` is passed. */
  private readBack = new Map<string, Set<number>>();
  private gate: { promise: Promise<void>; resolve: () => void } | undefined;

  /** @param options - see {@link GatewayRelayOptions} */
  constructor(options: GatewayRelayOptions) {
    this.options = { ...DEFAULT_GATEWAY_RELAY_OPTIONS, ...options };
    this.key = { apiUrl: options.apiUrl, appId: options.appId };
  }

  /** Whether the connection is open. */
  get open(): boolean {
    return this.gateway !== undefined;
  }

  /** How many times a gateway connection was opened (reconnections included): 1 across any number of reloads. */
  get connections(): number {
    return this.opens;
  }

  /**
   * Events held: received and not yet passed by the resume point (one acknowledged behind one that
   * is not is held too). The relay stops reading at `maxPending` of them.
   */
  get pending(): number {
    return this.line.length - this.head;
  }

  /** Loads the resume point and connects after it; resolves with the first `ready`. */
  async connect(): Promise<void> {
    const stored = await this.options.positions.load(this.key);
    if (stored) this.position = stored;
    const gateway = new GatewayClient({
      token: this.options.token,
      baseUrl: this.options.apiUrl,
      logger: silentLogger,
      lastEventId: stored?.eventId,
      readGate: () => this.gate?.promise,
    });
    gateway.on('open', () => {
      this.opens++;
    });
    gateway.on('reconnecting', ({ reason }) =>
      this.options.log(`The gateway connection dropped (${reason?.message ?? 'closed'}): reconnecting.`),
    );
    gateway.on('dispatch', (event) => this.receive(event as BotEvent));
    this.gateway = gateway;
    const ready = await gateway.connect();
    this.boardCount = ready.board_ids.length;
    const store = this.options.positions.description;
    this.options.out(
      stored?.eventId === undefined
        ? `Gateway connected, held by dev across reloads: no resume point stored, starting from the live stream (${store})`
        : `Gateway connected, held by dev across reloads: resuming after event ${stored.eventId} (${store})`,
    );
    if (stored?.eventId === undefined) {
      // A first start: the live stream's cursor is the resume point from now on (as the bot's own gateway does).
      this.position = { ...this.position, eventId: gateway.lastEventId, savedAt: Date.now() };
      this.saved = false;
      await this.save();
    }
  }

  /**
   * Feeds `target` from now on: first the boards' marks and the connection's `ready`, then every
   * event not acknowledged yet, in order.
   * @param target - the bot process that handles events now
   */
  feed(target: RelayTarget): void {
    this.target = target;
    const { boards, savedAt } = this.position;
    const readBack = Object.fromEntries([...this.readBack].map(([board, seqs]) => [board, [...seqs]]));
    target.send({ type: 'boardbot:marks', boards, readBack, since: savedAt, boardCount: this.boardCount });
    if (this.lastReady) target.send({ type: 'boardbot:event', n: 0, event: resumedReady(this.lastReady) });
    for (const entry of this.line.slice(this.head))
      if (!entry.done) target.send({ type: 'boardbot:event', n: entry.n, event: entry.event });
  }

  /** Feeds nobody: events wait in the line for the next {@link GatewayRelay.feed}. */
  unfeed(): void {
    this.target = undefined;
  }

  /**
   * Event `n` was handled: the resume point moves past the acknowledged events at the head of the line.
   * @param n - its number
   */
  done(n: number): void {
    const first = this.line[this.head];
    const entry = first && n >= first.n ? this.line[this.head + n - first.n] : undefined;
    if (!entry) return;
    entry.done = true;
    let passed = this.head;
    while (passed < this.line.length && (this.line[passed] as Entry).done) passed++;
    if (passed === this.head) return;
    const boards = { ...this.position.boards };
    let eventId = this.position.eventId;
    for (const { event } of this.line.slice(this.head, passed)) {
      if (event.id !== '') eventId = event.id;
      const message = !event.unknown && event.name === 'message.create' ? event.data.message : undefined;
      if (message) boards[message.board_id] = Math.max(message.seq, boards[message.board_id] ?? 0);
      // A gap's `ready` is acknowledged once its read-back ended: every message it read back is handled.
      if (!event.unknown && event.name === 'ready' && event.data.gap) {
        for (const [board, seqs] of this.readBack) boards[board] = Math.max(...seqs, boards[board] ?? 0);
        this.readBack.clear();
      }
    }
    // Passed events are dropped once they are half the line: a drop copies fewer events than it drops.
    this.head = passed * 2 >= this.line.length ? 0 : passed;
    if (this.head === 0) this.line = this.line.slice(passed);
    this.position = { eventId, boards, savedAt: Date.now() };
    this.saved = false;
    if (this.gate && this.pending <= this.options.maxPending / 2) {
      this.gate.resolve();
      this.gate = undefined;
      this.options.log(`The bot is down to ${this.pending} events to handle: dev reads the gateway again.`);
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, this.options.flushMs);
  }

  /**
   * A message read back after a gap was handled (the process that handles the gap, should it stop
   * first, is followed by one told not to handle it again).
   * @param board - its board
   * @param seq - its place on the board
   */
  readBackDone(board: string, seq: number): void {
    const seqs = this.readBack.get(board) ?? new Set<number>();
    seqs.add(seq);
    this.readBack.set(board, seqs);
  }

  /** Closes the connection and saves the resume point a last time. */
  async close(): Promise<void> {
    const gateway = this.gateway;
    this.gateway = undefined;
    this.target = undefined;
    await gateway?.close().catch(() => {});
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.save();
    this.line = [];
    this.head = 0;
  }

  private receive(event: BotEvent): void {
    if (!event.unknown && event.name === 'ready') this.lastReady = event;
    const entry: Entry = { n: this.next++, event, done: false };
    this.line.push(entry);
    this.target?.send({ type: 'boardbot:event', n: entry.n, event });
    if (!this.gate && this.pending >= this.options.maxPending) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.gate = { promise, resolve };
      this.options.log(
        `The bot has ${this.pending} events to handle: dev stops reading the gateway until it is down to ${this.options.maxPending / 2} (the platform keeps the others).`,
      );
    }
  }

  /** Saves the resume point if it moved, one save after the other. */
  private save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (this.saved) return;
      this.saved = true;
      await this.options.positions.save(this.key, this.position).catch((error: unknown) => {
        this.saved = false;
        this.options.log(`Saving the resume point failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
    return this.saving;
  }
}

/** The connection's `ready`, as a new process hears it: the stream resumed, with no gap to read back. */
function resumedReady(ready: BotEvent): BotEvent {
  if (ready.unknown || ready.name !== 'ready') return ready;
  return { ...ready, id: '', data: { ...ready.data, gap: false, resumed: true } };
}
