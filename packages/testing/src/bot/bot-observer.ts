import type { BotEvent, BotGateway, GatewayFactoryOptions, GatewayFailure } from '@boardbot/core';
import { GatewayClient } from '@boardbot/gateway';
import type { ReadyEvent } from '@boardbot/protocol';
import type { Waiters } from '../waiting/waiters.js';

type Listener = (arg: never) => void;

/** What a gateway reports with `gap`. */

/** The key under which a received event is counted: its name and the message or interaction id. */
export function eventKey(name: string, subjectId: string): string {
  return `${name}:${subjectId}`;
}

/** The {@link eventKey} of a delivered message or interaction event; undefined for any other. */
function keyOf(event: BotEvent): string | undefined {
  if (event.unknown) return undefined;
  switch (event.name) {
    case 'interaction.create':
      return eventKey(event.name, event.data.interaction.id);
    case 'message.create':
    case 'message.edit':
    case 'message.delete':
      return eventKey(event.name, event.data.message.id);
    default:
      return undefined;
  }
}

/**
 * Watches what the bot's real gateway client delivers to the runtime, without changing it: which
 * events reached the bot, and on which boards it is. This is how the harness knows that the bot has
 * received everything before it waits for the bot to be idle (see `TestPlatform.settle`).
 */
export class BotObserver {
  private readonly received = new Map<string, number>();
  private boards: readonly string[] = [];
  private connections = 0;

  /** @param waiters - told whenever the bot receives something */
  constructor(private readonly waiters: Waiters) {}

  /** How many events named `key` (see {@link eventKey}) the bot received. */
  count(key: string): number {
    return this.received.get(key) ?? 0;
  }

  /** The boards of the bot's latest `ready` frame. */
  get boardIds(): readonly string[] {
    return this.boards;
  }

  /** Whether the bot's gateway delivered a `ready` frame through this observer. */
  get connected(): boolean {
    return this.connections > 0;
  }

  /**
   * Wraps a gateway factory (the runtime's `gateway` option) so that every delivered event is
   * counted after the runtime took it.
   *
   * @param inner - the factory to wrap @defaultValue a real `GatewayClient`
   */
  factory(inner?: (options: GatewayFactoryOptions) => BotGateway): (options: GatewayFactoryOptions) => BotGateway {
    const build =
      inner ??
      ((o: GatewayFactoryOptions) => new GatewayClient({ token: o.token, baseUrl: o.baseUrl, logger: o.logger }));
    return (options) => new ObservedGateway(build(options), (event) => this.record(event));
  }

  private record(event: BotEvent): void {
    if (!event.unknown && event.name === 'ready') {
      this.boards = event.data.board_ids;
      this.connections++;
    }
    const key = keyOf(event);
    if (key !== undefined) this.received.set(key, this.count(key) + 1);
    this.waiters.notify();
  }
}

/** A gateway that forwards everything to the real one and reports each dispatch once it was handed over. */
class ObservedGateway implements BotGateway {
  constructor(
    private readonly inner: BotGateway,
    private readonly seen: (event: BotEvent) => void,
  ) {}

  connect(): Promise<ReadyEvent> {
    return this.inner.connect();
  }

  on(event: 'dispatch', listener: (event: BotEvent) => void): unknown;
  on(event: 'error', listener: (error: GatewayFailure) => void): unknown;
  on(event: 'reconnecting', listener: () => void): unknown;
  on(event: 'dispatch' | 'error' | 'reconnecting', listener: Listener): unknown {
    if (event === 'error') return this.inner.on('error', listener as (error: GatewayFailure) => void);
    if (event === 'reconnecting') return this.inner.on('reconnecting', listener as () => void);
    const take = listener as (event: BotEvent) => void;
    return this.inner.on('dispatch', (e: BotEvent) => {
      take(e);
      this.seen(e);
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
