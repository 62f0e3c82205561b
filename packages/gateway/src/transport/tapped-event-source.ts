import { EventSource, type EventSourceInit } from 'eventsource';

/** What a `TappedEventSource` reports, in stream order. */
export interface EventSourceTap {
  /** The stream was accepted (200, `text/event-stream`). */
  open(): void;
  /** One complete frame: its `event:` name (`message` by default), `data:` and `id:`. */
  frame(name: string, data: string, id: string): void;
  /** The connection ended or failed; `message` is the package's description, if any. */
  error(message: string | undefined, status: number | undefined): void;
}

/**
 * An `eventsource` `EventSource` whose every dispatched event goes to one tap, whatever its name.
 * `EventTarget` has no wildcard listener, and event names are open (CONTRACT.md "Tolerance"), so the
 * tap replaces `dispatchEvent`, which `EventSource` calls for `open`, `error` and every frame.
 */
export class TappedEventSource extends EventSource {
  #tap: EventSourceTap | undefined;

  /**
   * @param url - The stream URL.
   * @param init - `eventsource` options (the client passes its own `fetch`).
   * @param tap - Receives every event.
   */
  constructor(url: string, init: EventSourceInit, tap: EventSourceTap) {
    super(url, init);
    // The first event can only come after the fetch resolves, so setting the tap here is in time.
    this.#tap = tap;
  }

  override dispatchEvent(event: Event): boolean {
    const tap = this.#tap;
    if (!tap) return true;
    // A frame named `error` or `open` is a MessageEvent; the package's own events are not.
    if (event instanceof MessageEvent) tap.frame(event.type, event.data as string, event.lastEventId);
    else if (event.type === 'open') tap.open();
    else if (event.type === 'error') {
      const e = event as Event & { message?: string | undefined; code?: number | undefined };
      tap.error(e.message, e.code);
    }
    return true;
  }
}
