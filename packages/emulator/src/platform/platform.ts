import { randomUUID } from 'node:crypto';
import type { Logger } from '@boardbot/protocol';
import { TokenDigests } from '../auth/token-digests.js';
import { StreamHub } from '../gateway/hub.js';
import { frame } from '../gateway/sse-stream.js';
import { ApiCallLog } from '../observe/api-call-log.js';
import type { EmulatorLimits } from '../options.js';
import type { Store } from '../store/store.js';
import { AnswerWaiters } from './answer-waiters.js';
import { INTERACTION_TOKEN_SECRET, InteractionTokens } from './interaction-tokens.js';
import { Outbox } from './outbox.js';

/** Writes waiting for their group commit. */
interface Batch {
  outboxes: Outbox[];
  done: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

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
  /** The last app API calls, for the control API's "why" of a message. */
  readonly calls = new ApiCallLog();
  /** Callers waiting for interaction answers. */
  readonly answerWaiters = new AnswerWaiters();
  /** Interaction tokens, derived from the database's secret (never stored). */
  readonly tokens: InteractionTokens;
  /** Digests of the credentials seen recently (the gate's lookups). */
  readonly tokenDigests = new TokenDigests();
  /**
   * The address the emulator listens on when it is beyond loopback, else undefined: set by
   * `listen()`, so that a weak token chosen after the start is refused as one found at the start is.
   */
  exposedOn: string | undefined = undefined;
  private activitySeq = 0;
  private readonly resetListeners: (() => void)[] = [];
  private readonly disposers: (() => void)[] = [];
  private disposed = false;
  private batch: Batch | undefined;

  constructor(
    readonly store: Store,
    readonly now: () => number,
    readonly limits: EmulatorLimits,
    readonly logger: Logger,
  ) {
    this.tokens = new InteractionTokens(store.secrets.get(INTERACTION_TOKEN_SECRET));
    this.onReset(() => this.tokenDigests.clear());
  }

  /** The clock as an RFC 3339 UTC time with milliseconds. */
  isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  /**
   * A new id: a UUID v7 (RFC 9562), whose first 48 bits are the clock's milliseconds, so new rows land
   * at the end of the id indexes instead of at random pages.
   */
  newId(): string {
    const ms = Math.max(0, Math.floor(this.now())).toString(16).padStart(12, '0').slice(-12);
    return `${ms.slice(0, 8)}-${ms.slice(8)}-7${randomUUID().slice(15)}`;
  }

  /**
   * Runs `fn` atomically with an outbox, inside the current batch (group commit): the writes of one
   * event-loop turn are committed together right after it, and only then are their events pushed to
   * the streams. If `fn` throws, none of its writes happen and none of its events are pushed. No
   * answer leaves before the batch holding its writes committed (the server awaits {@link flushed}
   * before sending), so an acknowledged write is a committed one.
   */
  write<T>(fn: (out: Outbox) => T): T {
    const batch = this.batch ?? this.beginBatch();
    const out = new Outbox(this.activity.size > 0);
    const result = this.store.transaction(() => fn(out));
    batch.outboxes.push(out);
    return result;
  }

  /** Resolves once every write made so far is committed; rejects if that commit failed. */
  flushed(): Promise<void> {
    return this.batch?.done ?? Promise.resolve();
  }

  /** Whether writes are waiting for their commit. */
  get hasPendingWrites(): boolean {
    return this.batch !== undefined;
  }

  /** Commits the current batch now (start-up, shutdown). */
  flushNow(): void {
    this.commitBatch();
  }

  private beginBatch(): Batch {
    this.store.begin();
    let resolve: () => void = () => {};
    let reject: (err: unknown) => void = () => {};
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Awaited by the answers; a failure with no answer waiting must not be an unhandled rejection.
    done.catch(() => {});
    const batch: Batch = { outboxes: [], done, resolve, reject };
    this.batch = batch;
    setImmediate(() => this.commitBatch());
    return batch;
  }

  private commitBatch(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    try {
      this.store.commit();
    } catch (err) {
      this.store.abort();
      this.logger.error({ err }, 'emulator: a commit failed; its requests are answered with 500');
      batch.reject(err);
      return;
    }
    this.publish(batch.outboxes);
    for (const out of batch.outboxes) for (const fn of out.afterCommit) fn();
    batch.resolve();
  }

  /**
   * Appends an event to one app's log (inside a write).
   *
   * @param live - The `data:` JSON pushed to open streams, when it differs from the stored one (an
   * `interaction.create` is stored without its token; see {@link replayData}).
   */
  appendAppEvent(out: Outbox, appId: string, name: string, data: string, live = data): void {
    const id = this.store.nextEventId(appId);
    const nowMs = this.now();
    this.store.events.insert(appId, id, name, data, nowMs);
    out.appEvents.push({ appId, id, name, data: live });
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

  /** The `data:` JSON of a stored event as a replay sends it: what was pushed live, token included. */
  replayData(name: string, data: string): string {
    return name === 'interaction.create' ? this.tokens.withToken(data) : data;
  }

  /** Appends an event to the log of every app installed on `boardId`, and to the activity stream. */
  appendBoardEvent(out: Outbox, boardId: string, name: string, data: string): void {
    for (const appId of this.store.apps.installedOn(boardId)) this.appendAppEvent(out, appId, name, data);
    if (out.wantsActivity) out.activity.push({ name, data });
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

  /** Ends long waits (interaction waits answer with what they have): the emulator is closing. */
  stopWaiting(): void {
    this.disposed = true;
    this.answerWaiters.releaseAll();
  }

  /** Releases timers; the store is closed by its owner. */
  dispose(): void {
    this.stopWaiting();
    for (const fn of this.disposers.splice(0)) fn();
  }

  /** The id of the last activity frame, the cursor of a new activity stream's `ready` frame. */
  get activityCursor(): number {
    return this.activitySeq;
  }

  /** Pushes an activity event outside of a write (for example, a token that expired). */
  pushActivity(out: Outbox): void {
    this.publish([out]);
  }

  /**
   * Pushes the events of committed writes to the open streams. The frames of one commit are joined
   * per app and encoded once: each stream gets one `Buffer` in one write, instead of a string per
   * frame that the socket would encode to UTF-8 again for every stream. Apps with no open stream
   * get no frame at all.
   */
  private publish(outs: readonly Outbox[]): void {
    const byApp = new Map<string, string>();
    for (const out of outs) {
      for (const e of out.appEvents) {
        if (this.gateway.count(e.appId) === 0) continue;
        byApp.set(e.appId, (byApp.get(e.appId) ?? '') + frame(e.id, e.name, e.data));
      }
    }
    for (const [appId, text] of byApp) this.gateway.push(appId, Buffer.from(text));
    if (this.activity.size === 0) return;
    let text = '';
    for (const out of outs) for (const e of out.activity) text += frame(++this.activitySeq, e.name, e.data);
    if (text !== '') this.activity.push(ACTIVITY_KEY, Buffer.from(text));
  }
}
