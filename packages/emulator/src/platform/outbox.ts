import type { ActivityEventName } from '../control/activity-events.js';
/** An event of one app's log, ready to be framed and pushed to that app's gateway streams. */
export interface AppEvent {
  appId: string;
  id: number;
  name: string;
  /** The `data:` JSON, `{ "type": name, ...payload }`. */
  data: string;
}

/** An event of the control API's activity stream (the playground's view of everything). */
export interface ActivityEvent {
  name: string;
  /** The `data:` JSON, `{ "type": name, ...payload }`. */
  data: string;
}

/**
 * Events produced by one write. They are stored in the same transaction as the write and pushed to
 * the streams only after it commits, so a stream never shows something that was rolled back.
 */
export class Outbox {
  /**
   * @param wantsActivity - Whether an activity stream is open as the write begins. When none is,
   * activity events are not built at all (their payloads cost reads and JSON on every write); a
   * stream opened later starts after this write.
   */
  constructor(readonly wantsActivity = true) {}

  readonly appEvents: AppEvent[] = [];
  readonly activity: ActivityEvent[] = [];
  /** Work to do once the write committed (waking waiters). */
  readonly afterCommit: (() => void)[] = [];

  /** Queues an activity event; `payload` is merged after `type`. */
  activityEvent(name: ActivityEventName, payload: object): void {
    if (!this.wantsActivity) return;
    this.activity.push({ name, data: JSON.stringify({ type: name, ...payload }) });
  }
}
