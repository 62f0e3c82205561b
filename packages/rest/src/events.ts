import type { Logger } from '@boardbot/protocol';

/** Payload of `rateLimited`: the queue of a credential started waiting. */
export interface RateLimitedEvent {
  /** Whose bucket waits: the app token's, or an interaction token's (never the token itself). */
  bucket: 'app' | 'interaction';
  /** Why: the window is spent (`exhausted`) or a 429 said to wait (`retry_after`). */
  reason: 'exhausted' | 'retry_after';
  /** How long the queue waits before it tries again, in milliseconds. */
  waitMs: number;
  /** Calls waiting in this bucket's queue. */
  queued: number;
  /** Requests per window, when known. */
  limit: number | undefined;
  /** The call at the head of the queue. */
  method: string;
  /** Its redacted path. */
  path: string;
}

/** Payload of `retry`: an attempt failed and the call will try again after `delayMs`. */
export interface RetryEvent {
  method: string;
  path: string;
  /** The endpoint's route template (`/boards/{boardId}/messages`), bounded for metric labels. */
  route: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** Back-off before the next attempt, in milliseconds. */
  delayMs: number;
  /** What failed. */
  reason: 'network' | 'timeout' | 'status' | 'invalid_response' | 'rate_limited';
  /** The status of the failed answer, when there was one. */
  status?: number;
  /** The `X-Request-Id` of the call, when given. */
  requestId?: string;
}

/** Payload of `response`: an answer arrived (any status, retries included). */
export interface ResponseEvent {
  method: string;
  path: string;
  /** The endpoint's route template (`/boards/{boardId}/messages`), bounded for metric labels. */
  route: string;
  status: number;
  /** Attempt number (1 for the first). */
  attempt: number;
  /** Time from sending the attempt to the headers, in milliseconds. */
  durationMs: number;
  requestId?: string;
}

/** The events of {@link RestClient}, by name. None carries a token. */
export interface RestEvents {
  rateLimited: RateLimitedEvent;
  retry: RetryEvent;
  response: ResponseEvent;
}

/** A listener of the event `K`. */
export type RestEventListener<K extends keyof RestEvents> = (event: RestEvents[K]) => void;

type Listeners = { [K in keyof RestEvents]: RestEventListener<K>[] };

/**
 * A tiny typed emitter: a listener that throws is logged and does not disturb the call or the other
 * listeners (an observer must never break a request).
 */
export class RestEventEmitter {
  private readonly listeners: Listeners = { rateLimited: [], retry: [], response: [] };

  /** @param logger - where a throwing listener is reported */
  constructor(private readonly logger: Logger) {}

  /**
   * Adds a listener.
   * @param name - `rateLimited`, `retry` or `response`
   * @param listener - called with the event's payload
   */
  on<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): this {
    (this.listeners[name] as RestEventListener<K>[]).push(listener);
    return this;
  }

  /**
   * Removes a listener added with {@link RestEventEmitter.on}.
   * @param name - the event name
   * @param listener - the same function
   */
  off<K extends keyof RestEvents>(name: K, listener: RestEventListener<K>): this {
    const list = this.listeners[name] as RestEventListener<K>[];
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
    return this;
  }

  /**
   * Whether anyone listens, so the hot path builds a payload only when it will be read.
   * @param name - the event name
   */
  has(name: keyof RestEvents): boolean {
    return this.listeners[name].length > 0;
  }

  /**
   * Calls every listener of `name` with `event`.
   * @param name - the event name
   * @param event - the payload
   */
  emit<K extends keyof RestEvents>(name: K, event: RestEvents[K]): void {
    for (const listener of [...(this.listeners[name] as RestEventListener<K>[])]) {
      try {
        listener(event);
      } catch (err) {
        this.logger.error({ err, event: name }, 'a RestClient event listener threw');
      }
    }
  }
}
