import { backoffDelay } from '@boardbot/protocol/http';
import { ACTIVITY_EVENTS } from './activity-events.js';
import type { ActivityEvent } from './schemas/activity.js';

// Browsers' `EventSource` by default; in Node, pass one (the `eventsource` package's fits).

/** What the page shows about its live connection. */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

/** Options of {@link openActivityStream}. */
export interface ActivityStreamOptions {
  /** URL of `GET /_emulator/v1/events?key=...`: `ControlClient.eventsUrl()`. */
  url: string;
  /** Called with every event, in order; `ready` starts each (re)connection. */
  onEvent(event: ActivityEvent): void;
  /** Called whenever the connection's status changes. */
  onStatus(status: StreamStatus): void;
  /**
   * Asked after the browser gave up on the stream (any non-200 answer closes an `EventSource` for
   * good): resolves `false` when the admin key is no longer accepted, so the page stops retrying.
   */
  keyStillValid(): Promise<boolean>;
  /**
   * First delay before opening a new stream after the browser gave up, in milliseconds; doubled on
   * each failure.
   * @defaultValue 500
   */
  initialDelayMs?: number;
  /**
   * Longest delay between two attempts, in milliseconds.
   * @defaultValue 10000
   */
  maxDelayMs?: number;
  /**
   * The `EventSource` constructor.
   * @defaultValue `globalThis.EventSource`
   */
  EventSource?: typeof EventSource;
}

/** Defaults of {@link ActivityStreamOptions}. */
export const DEFAULT_ACTIVITY_STREAM_OPTIONS = {
  initialDelayMs: 500,
  maxDelayMs: 10_000,
} satisfies Required<Pick<ActivityStreamOptions, 'initialDelayMs' | 'maxDelayMs'>>;

/** A running activity stream. */
export interface ActivityStream {
  /** Closes the stream and stops reconnecting. */
  close(): void;
}

/**
 * Follows the control API's activity stream and keeps following it. The browser's `EventSource`
 * retries dropped connections by itself; when it gives up (the emulator answered an error, e.g.
 * while restarting), this opens a new one with back-off, unless the admin key was refused.
 * The stream does not replay (docs/control-api.md), so every `ready` tells the page to reload.
 */
export function openActivityStream(options: ActivityStreamOptions): ActivityStream {
  const Source = options.EventSource ?? globalThis.EventSource;
  const initialDelay = options.initialDelayMs ?? DEFAULT_ACTIVITY_STREAM_OPTIONS.initialDelayMs;
  const maxDelay = options.maxDelayMs ?? DEFAULT_ACTIVITY_STREAM_OPTIONS.maxDelayMs;
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let closed = false;

  const dispatch = (frame: MessageEvent<string>) => {
    let event: ActivityEvent;
    try {
      event = JSON.parse(frame.data) as ActivityEvent;
    } catch {
      return; // A frame that is not JSON carries nothing the page can show.
    }
    if (event.type === 'ready') {
      failures = 0;
      options.onStatus('live');
    }
    options.onEvent(event);
  };

  const retryLater = async () => {
    options.onStatus('reconnecting');
    const valid = await options.keyStillValid().catch(() => true);
    if (closed) return;
    if (!valid) {
      options.onStatus('unauthorized');
      return;
    }
    failures += 1;
    // No jitter: one page follows one emulator, there is no crowd to spread out.
    const delay = backoffDelay({ attempt: failures, baseMs: initialDelay, maxMs: maxDelay, jitter: 0, random: 0 });
    timer = setTimeout(connect, delay);
  };

  function connect() {
    if (closed) return;
    const es = new Source(options.url);
    source = es;
    for (const name of ACTIVITY_EVENTS) es.addEventListener(name, dispatch as EventListener);
    es.onerror = () => {
      if (closed || source !== es) return;
      if (es.readyState === Source.CLOSED) {
        es.close();
        void retryLater();
      } else {
        // The browser is already reconnecting by itself (a dropped connection).
        options.onStatus('reconnecting');
      }
    };
  }

  options.onStatus('connecting');
  connect();
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      source?.close();
    },
  };
}
