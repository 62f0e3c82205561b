import { randomUUID } from 'node:crypto';
import type { Logger } from '@boardbot/protocol';
import { StreamHub } from '../gateway/hub.js';
import { frame } from '../gateway/sse-stream.js';
import type { EmulatorLimits } from '../options.js';
import type { Store } from '../store/store.js';
import { AnswerWaiters } from './answer-waiters.js';
import { Outbox } from './outbox.js';

/** Key of the control API's activity stream in its hub. */
export const ACTIVITY_KEY = '*';

// Retention runs every this many events of an app (or every `retainedEvents`, if fewer), inside the
// append's transaction, so the log stays bounded without a timer and without a pause.
const PRUNE_EVERY = 512;

/**
 * The platform's state and its write path, shared by the app API and the control API: the store,
 * the clock, the limits, and the hubs of open streams. Every write goes through {@link write}.
 */
export class Platform {
  /** Open gateway streams, by app id. */
  readonly gateway = new StreamHub();
  /** Open activity streams of the control API. */
  readonly activity = new StreamHub();
  /** Callers waiting for interaction answers. */
  readonly answerWaiters = new AnswerWaiters();
  private activitySeq = 0;
  private readonly resetListeners: (() => void)[] = [];
  private readonly disposers: (() => void)[] = [];
  private disposed = false;

  constructor(
    readonly store: Store,
    readonly now: () => number,
    readonly limits: EmulatorLimits,
    readonly logger: Logger,
  ) {}

  /** The clock as an RFC 3339 UTC time with milliseconds. */
  isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  /** A new id (UUID v4). */
  newId(): string {
    return randomUUID();
  }

  /**
   * Runs `fn` in one transaction with an outbox; once it commits, pushes the outbox's events to the
   * open streams. If `fn` throws, nothing is written and nothing is pushed.
   */
  write<T>(fn: (out: Outbox) => T): T {
    const out = new Outbox();
    const result = this.store.transaction(() => fn(out));
    this.publish(out);
    for (const fn of out.afterCommit) fn();
    return result;
  }

  /** Appends an event to one app's log (inside a write). */
  appendAppEvent(out: Outbox, appId: string, name: string, data: string): void {
    const id = this.store.apps.nextEventId(appId);
    const nowMs = this.now();
    this.store.events.insert(appId, id, name, data, nowMs);
    out.appEvents.push({ appId, id, name, data });
    if (id % Math.min(PRUNE_EVERY, this.limits.retainedEvents) === 0) {
      const pruned = this.store.events.prune(
        appId,
        id,
        this.limits.retainedEvents,
        nowMs - this.limits.retainedEventsMs,
      );
      if (pruned > 0) this.store.apps.markPruned(appId, pruned);
    }
  }

  /** Appends an event to the log of every app installed on `boardId`, and to the activity stream. */
  appendBoardEvent(out: Outbox, boardId: string, name: string, data: string): void {
    for (const appId of this.store.apps.installedOn(boardId)) this.appendAppEvent(out, appId, name, data);
    out.activity.push({ name, data });
  }

  /** Registers `fn` to run after a reset of the platform (to drop in-memory state such as rate windows). */
  onReset(fn: () => void): void {
    this.resetListeners.push(fn);
  }

  /** Runs the reset listeners (called by the control API's reset). */
  notifyReset(): void {
    for (const fn of this.resetListeners) fn();
  }

  /** Registers `fn` to run when the emulator closes (timers of the platform's watchers). */
  onDispose(fn: () => void): void {
    this.disposers.push(fn);
  }

  /** Whether the emulator closed (long waits stop). */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Releases timers; the store is closed by its owner. */
  dispose(): void {
    this.disposed = true;
    this.answerWaiters.releaseAll();
    for (const fn of this.disposers.splice(0)) fn();
  }

  /** The id of the last activity frame, the cursor of a new activity stream's `ready` frame. */
  get activityCursor(): number {
    return this.activitySeq;
  }

  /** Pushes an activity event outside of a write (for example, a token that expired). */
  pushActivity(out: Outbox): void {
    this.publish(out);
  }

  private publish(out: Outbox): void {
    for (const e of out.appEvents) this.gateway.push(e.appId, frame(e.id, e.name, e.data));
    if (this.activity.size === 0) return;
    for (const e of out.activity) this.activity.push(ACTIVITY_KEY, frame(++this.activitySeq, e.name, e.data));
  }
}
