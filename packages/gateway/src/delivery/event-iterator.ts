import { GatewayConcurrentNextError, type GatewayError } from '../errors.js';
import type { GatewayDispatch } from '../types.js';
import { Fifo } from './fifo.js';

/** What an iterator tells its owner. */
export interface EventIteratorOwner {
  /** The consumer took an event: there may be room for more. */
  pulled(iterator: EventIterator): void;
  /** The consumer stopped (`break` out of `for await`, or `return()`). */
  detached(iterator: EventIterator): void;
}

/**
 * The async iterator behind `GatewayClient.events()`: a bounded buffer of delivered events. When it
 * is full the client stops reading the socket (no event is dropped, memory stays bounded) until the
 * consumer takes one. After `close()` it yields what it holds, then ends; after a fatal error it
 * yields what it holds, then throws that error.
 */
export class EventIterator implements AsyncIterableIterator<GatewayDispatch> {
  readonly #buffer = new Fifo<GatewayDispatch>();
  readonly #capacity: number;
  readonly #owner: EventIteratorOwner;
  #waiter: { resolve: (r: IteratorResult<GatewayDispatch>) => void; reject: (e: unknown) => void } | undefined;
  #ended = false;
  #error: GatewayError | undefined;

  /**
   * @param capacity - Events held before the client pauses reading.
   * @param owner - Told when the consumer takes an event or stops.
   */
  constructor(capacity: number, owner: EventIteratorOwner) {
    this.#capacity = capacity;
    this.#owner = owner;
  }

  /** Whether the buffer holds `capacity` events. */
  get full(): boolean {
    return this.#buffer.size >= this.#capacity;
  }

  /** Events waiting for the consumer. */
  get size(): number {
    return this.#buffer.size;
  }

  /** @param event - The next event in stream order. */
  push(event: GatewayDispatch): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.resolve({ value: event, done: false });
    } else {
      this.#buffer.push(event);
    }
  }

  /** Ends the iteration once the buffer is drained; with `error`, throws it then. */
  end(error?: GatewayError): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = undefined;
    this.#settleEnd(waiter);
  }

  next(): Promise<IteratorResult<GatewayDispatch>> {
    const event = this.#buffer.shift();
    if (event !== undefined) {
      this.#owner.pulled(this);
      return Promise.resolve({ value: event, done: false });
    }
    if (this.#ended) {
      return new Promise((resolve, reject) => this.#settleEnd({ resolve, reject }));
    }
    if (this.#waiter) return Promise.reject(new GatewayConcurrentNextError());
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<GatewayDispatch>> {
    this.#ended = true;
    this.#buffer.clear();
    this.#error = undefined;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ value: undefined, done: true });
    this.#owner.detached(this);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #settleEnd(waiter: { resolve: (r: IteratorResult<GatewayDispatch>) => void; reject: (e: unknown) => void }): void {
    const error = this.#error;
    if (error) {
      // The error is thrown once; later calls just report the end.
      this.#error = undefined;
      waiter.reject(error);
    } else {
      waiter.resolve({ value: undefined, done: true });
    }
  }
}
