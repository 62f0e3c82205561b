import type { BotGateway, GatewayFactoryOptions } from '@boardbot/core';
import { GatewayClient } from '@boardbot/gateway';
import type { ReadyEvent } from '@boardbot/protocol';
import type { Waiters } from '../waiting/waiters.js';

/** A gateway event as the runtime receives it. */
interface Dispatch {
  name: string;
  id: string;
  data: unknown;
}

type Listener = (arg: never) => void;

/** What a gateway reports with `gap`. */

/** The key under which a received event is counted: its name and the message or interaction id. */
export function eventKey(name: string, data: unknown): string | undefined {
  const d = data as { message?: { id?: unknown }; interaction?: { id?: unknown } } | null;
  const id = d?.message?.id ?? d?.interaction?.id;
  return typeof id === 'string' ? `${name}:${id}` : undefined;
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

  private record(event: Dispatch): void {
    if (event.name === 'ready') {
      this.boards = (event.data as ReadyEvent).board_ids;
      this.connections++;
    }
    const key = eventKey(event.name, event.data);
    if (key !== undefined) this.received.set(key, this.count(key) + 1);
    this.waiters.notify();
  }
}

/** A gateway that forwards everything to the real one and reports each dispatch once it was handed over. */
class ObservedGateway implements BotGateway {
  constructor(
    private readonly inner: BotGateway,
    private readonly seen: (event: Dispatch) => void,
  ) {}

  connect(): Promise<ReadyEvent> {
    return this.inner.connect();
  }

  on(event: 'dispatch', listener: (event: Dispatch) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'dispatch' | 'error', listener: Listener): unknown {
    if (event === 'error') return this.inner.on('error', listener as (error: Error) => void);
    const take = listener as (event: Dispatch) => void;
    return this.inner.on('dispatch', (e: Dispatch) => {
      take(e);
      this.seen(e);
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
