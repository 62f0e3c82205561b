import type { Logger } from '@boardbot/protocol';

/** A listener of event `K` of the map `E`. */
export type Listener<E extends Record<keyof E, unknown[]>, K extends keyof E> = (...args: E[K]) => void;

/**
 * A small emitter typed by a map of event names to listener arguments. Unlike Node's
 * `EventEmitter`, an `error` without listeners is not thrown, and a listener that throws is logged
 * and skipped: a bug in one handler must not cut the stream or reorder events for the others.
 */
export class TypedEmitter<E extends Record<keyof E, unknown[]>> {
  // Listeners are stored untyped; `on` and `emit` keep each name tied to its own arguments.
  readonly #listeners = new Map<keyof E, Array<Listener<E, keyof E>>>();
  readonly #emitterLogger: () => Logger;

  /** @param logger - Where a throwing listener is reported (read lazily). */
  constructor(logger: () => Logger) {
    this.#emitterLogger = logger;
  }

  /**
   * Adds a listener.
   *
   * @param name - The event name.
   * @param listener - Called with the event's arguments, in the order events happen.
   * @returns This emitter, for chaining.
   */
  on<K extends keyof E>(name: K, listener: Listener<E, K>): this {
    const list = this.#listeners.get(name);
    // Copy-on-write: an emit in progress keeps iterating the list it started with.
    const added = listener as unknown as Listener<E, keyof E>;
    this.#listeners.set(name, list ? [...list, added] : [added]);
    return this;
  }

  /**
   * Adds a listener called at most once.
   *
   * @param name - The event name.
   * @param listener - Called with the next event's arguments.
   * @returns This emitter, for chaining.
   */
  once<K extends keyof E>(name: K, listener: Listener<E, K>): this {
    const wrapper = ((...args: E[K]) => {
      this.off(name, wrapper);
      listener(...args);
    }) as Listener<E, K>;
    return this.on(name, wrapper);
  }

  /**
   * Removes a listener added with `on` (or `once`, before it ran).
   *
   * @param name - The event name.
   * @param listener - The listener to remove.
   * @returns This emitter, for chaining.
   */
  off<K extends keyof E>(name: K, listener: Listener<E, K>): this {
    const list = this.#listeners.get(name);
    if (!list) return this;
    const removed = listener as unknown as Listener<E, keyof E>;
    const next = list.filter((l) => l !== removed);
    if (next.length === 0) this.#listeners.delete(name);
    else this.#listeners.set(name, next);
    return this;
  }

  /**
   * How many listeners `name` has.
   *
   * @param name - The event name.
   */
  listenerCount(name: keyof E): number {
    return this.#listeners.get(name)?.length ?? 0;
  }

  /** Calls every listener of `name`; returns whether there was any. */
  protected emit<K extends keyof E>(name: K, ...args: E[K]): boolean {
    const list = this.#listeners.get(name) as unknown as Array<Listener<E, K>> | undefined;
    if (!list) return false;
    for (let i = 0; i < list.length; i++) {
      try {
        (list[i] as Listener<E, K>)(...args);
      } catch (err) {
        this.#emitterLogger().error({ err, event: String(name) }, 'a gateway listener threw; the stream goes on');
      }
    }
    return true;
  }
}
