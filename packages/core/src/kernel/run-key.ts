/** How many keys were made: each takes the next place in a run's store. */
let made = 0;

/**
 * Names one feature's state on a handler run, typed by `T`: `run.get(key)` and `run.set(key, value)`,
 * as Hono's `c.get`/`c.set`. The feature that makes a key owns what is kept under it (the locale,
 * the trace context, a deadline a stream asked for); make keys once, where the module loads.
 * @example
 * const STARTED = new RunKey<number>('my-plugin started');
 * stage: { name: 'my-plugin', phase: 'open', run: (pass) => pass.run.set(STARTED, Date.now()) }
 */
export class RunKey<T> {
  private declare readonly type: T;
  /** The key's place in a run's store. */
  readonly index = made++;

  /** @param name - what is kept under it, for debugging */
  constructor(readonly name: string) {}
}
