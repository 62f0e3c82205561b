import { Fifo } from '../kernel/fifo.js';

interface Entry {
  seq: number;
  key: string | undefined;
  task: () => Promise<unknown>;
}

/**
 * A FIFO run by at most `concurrency` workers. Tasks start in arrival order, except that a task
 * whose key already has a task queued or running waits for it. The key is the event's ordering key
 * (`orderingKey`: by default its board, or the person on the board, or none, per `orderBy`), so the
 * events of one key are handled one at a time, in order, while other keys run side by side.
 */
export class KeyedQueue {
  private readonly ready = new Fifo<Entry>();
  private readonly blocked = new Map<string, Entry[]>();
  private readonly busy = new Set<string>();
  private readonly idleWaiters: (() => void)[] = [];
  private blockedCount = 0;
  private seq = 0;
  private active = 0;

  /**
   * @param concurrency - most tasks running at once
   * @param onError - hears about a task that threw (tasks are expected to catch their own errors)
   */
  constructor(
    private readonly concurrency: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Tasks queued or running. */
  get size(): number {
    return this.ready.size + this.blockedCount + this.active;
  }

  /**
   * Queues a task.
   * @param key - tasks with the same key run one after the other; undefined: no ordering constraint
   * @param task - the work; it should not throw
   */
  push(key: string | undefined, task: () => Promise<unknown>): void {
    const entry: Entry = { seq: this.seq++, key, task };
    if (key !== undefined) {
      if (this.busy.has(key)) {
        const list = this.blocked.get(key);
        if (list) list.push(entry);
        else this.blocked.set(key, [entry]);
        this.blockedCount++;
        return;
      }
      this.busy.add(key);
    }
    this.ready.push(entry);
    this.pump();
  }

  /** Resolves once nothing is queued or running. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Drops every task that has not started (at shutdown, once waiting is over); running tasks go on.
   * @returns how many were dropped
   */
  discardQueued(): number {
    const dropped = this.ready.size + this.blockedCount;
    // A queued task owns its key until it runs; a running task keeps its own and releases it when done.
    for (const { key } of this.ready.drain()) if (key !== undefined) this.busy.delete(key);
    this.blocked.clear();
    this.blockedCount = 0;
    this.wakeIfIdle();
    return dropped;
  }

  private pump(): void {
    while (this.active < this.concurrency && this.ready.size > 0) {
      const entry = this.ready.shift() as Entry;
      this.active++;
      void this.run(entry);
    }
  }

  private async run(entry: Entry): Promise<void> {
    try {
      await entry.task();
    } catch (error) {
      this.onError(error);
    }
    this.active--;
    this.release(entry.key);
    this.pump();
    this.wakeIfIdle();
  }

  /** Resolves the `idle()` waiters once nothing is queued or running (no array made per task when none wait). */
  private wakeIfIdle(): void {
    if (this.idleWaiters.length === 0 || this.size !== 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private release(key: string | undefined): void {
    if (key === undefined) return;
    const list = this.blocked.get(key);
    const next = list?.shift();
    if (!next) {
      this.busy.delete(key);
      return;
    }
    this.blockedCount--;
    if (list?.length === 0) this.blocked.delete(key);
    // The waiting task arrived before most of the ready ones: put it back in arrival order.
    this.ready.insert(next, (queued) => queued.seq > next.seq);
  }
}

/**
 * Runs `task` as a worker of `queue` without an ordering key, and resolves when it ended.
 * @param queue - the bot's queue
 * @param task - the work; it should not throw
 */
export function queueTask(queue: KeyedQueue, task: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => queue.push(undefined, () => task().finally(resolve)));
}
