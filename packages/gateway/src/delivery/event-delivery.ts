import type { GatewayError } from '../errors.js';
import type { GatewayDispatch } from '../types.js';
import { EventIterator, type EventIteratorOwner } from './event-iterator.js';
import { Fifo } from './fifo.js';

/** What delivery needs from the client. */
export interface DeliveryConfig {
  maxBufferedEvents: number;
  /** Hands one event to the listeners; called in stream order, once per event. */
  deliver(event: GatewayDispatch): void;
}

/**
 * Moves accepted events to the listeners and the `events()` iterators, in order, and tells the
 * connection when to stop reading: while an iterator is full (a slow consumer), and for one macrotask
 * (one `setImmediate`) after each `ready`, so that code written `await gw.connect(); for await (const e of gw.events())`
 * gets its iterator before the replayed events that follow `ready` are delivered.
 */
export class EventDelivery implements EventIteratorOwner {
  readonly #config: DeliveryConfig;
  readonly #pending = new Fifo<GatewayDispatch>();
  readonly #iterators = new Set<EventIterator>();
  #hold: ReturnType<typeof setImmediate> | undefined;
  #holding = false;
  #draining = false;
  #closed = false;
  #gate: { promise: Promise<void>; release: () => void } | undefined;

  /** @param config - Buffer bound and the listener hand-off. */
  constructor(config: DeliveryConfig) {
    this.#config = config;
  }

  /** @param event - The next accepted event, in stream order. */
  accept(event: GatewayDispatch): void {
    if (this.#closed) return;
    // Hot path: nothing queued and nothing in the way, so hand the event over without queueing it.
    if (this.#pending.size === 0 && !this.#draining && this.#canDeliver()) {
      this.#hand(event);
      return;
    }
    this.#pending.push(event);
    this.#drain();
  }

  /** A new iterator over the events delivered from now on. */
  iterate(): EventIterator {
    const iterator = new EventIterator(this.#config.maxBufferedEvents, this);
    if (this.#closed) iterator.end();
    else this.#iterators.add(iterator);
    return iterator;
  }

  /**
   * A promise while the reader must wait (pending events, a full iterator, the hold after `ready`);
   * undefined when it may read on.
   */
  gate(): Promise<void> | undefined {
    if (this.#closed || !this.#blocked()) return undefined;
    if (!this.#gate) {
      let release = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      this.#gate = { promise, release };
    }
    return this.#gate.promise;
  }

  /** Ends delivery: iterators yield what they hold, then end (or throw `error`). */
  close(error?: GatewayError): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#hold) clearImmediate(this.#hold);
    this.#hold = undefined;
    this.#holding = false;
    this.#pending.clear();
    for (const iterator of this.#iterators) iterator.end(error);
    this.#iterators.clear();
    this.#releaseGate();
  }

  pulled(iterator: EventIterator): void {
    // Only the step from full to not-full can unblock anything.
    if (iterator.size === this.#config.maxBufferedEvents - 1) this.#drain();
  }

  detached(iterator: EventIterator): void {
    this.#iterators.delete(iterator);
    this.#drain();
  }

  #blocked(): boolean {
    if (this.#pending.size > 0 || this.#holding) return true;
    for (const iterator of this.#iterators) if (iterator.full) return true;
    return false;
  }

  #canDeliver(): boolean {
    if (this.#holding || this.#closed) return false;
    if (this.#iterators.size === 0) return true;
    for (const iterator of this.#iterators) if (iterator.full) return false;
    return true;
  }

  #hand(event: GatewayDispatch): void {
    // Iterators first: a listener that calls close() must not rob them of the current event.
    if (this.#iterators.size > 0) for (const iterator of this.#iterators) iterator.push(event);
    this.#config.deliver(event);
    if (event.name === 'ready') this.#startHold();
  }

  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.#pending.size > 0 && this.#canDeliver()) this.#hand(this.#pending.shift() as GatewayDispatch);
    } finally {
      this.#draining = false;
    }
    if (this.#gate && !this.#blocked()) this.#releaseGate();
  }

  #startHold(): void {
    if (this.#closed || this.#holding) return;
    this.#holding = true;
    // setImmediate runs after the microtasks that resume `await gw.connect()`, and, unlike a timer,
    // without a clock's granularity: the pause costs no measurable throughput.
    this.#hold = setImmediate(() => {
      this.#hold = undefined;
      this.#holding = false;
      this.#drain();
    });
  }

  #releaseGate(): void {
    const gate = this.#gate;
    this.#gate = undefined;
    gate?.release();
  }
}
