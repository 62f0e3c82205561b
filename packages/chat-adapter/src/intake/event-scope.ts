import { AsyncLocalStorage } from 'node:async_hooks';

/** The interaction a slash command's handler answers: its first posts to the board go through its token. */
export interface InteractionAnswer {
  token: string;
  /** The board's channel id: posts to it answer the interaction. */
  channelId: string;
  /** Answers sent so far (the platform takes five per token). */
  answers: number;
}

/**
 * The platform event Chat is handling, as the adapter's writes see it: Chat's `postMessage` carries
 * no event, so the adapter keys each post from the event it is handling, the same on every run of
 * that event (a replay after a crash posts nothing new).
 */
export interface EventScope {
  /** The gateway event's id. */
  readonly eventId: string;
  /** The ordinal of the event's next post. */
  next: number;
  /** The message being handled: posts into its thread reply to it. */
  readonly message?: { readonly threadId: string; readonly id: string } | undefined;
  /** The interaction being handled, for a slash command. */
  readonly interaction?: InteractionAnswer | undefined;
}

// Chat runs a handler in the async flow of the adapter's processMessage call, so what the adapter
// stores here before that call is what its writes read inside the handler.
const scopes = new AsyncLocalStorage<EventScope>();

/**
 * Runs `fn` (and all it awaits) as the handling of one event.
 * @param scope - the event
 * @param fn - the handing of the event to Chat
 */
export function runInEvent<T>(scope: EventScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The event being handled in this async flow, if any. */
export function currentEvent(): EventScope | undefined {
  return scopes.getStore();
}

/**
 * The idempotency key of the current event's next post (`chat:<event id>:<n>`), or undefined outside
 * an event (the REST client then gives the post a fresh key, which still guards its own retries).
 */
export function nextPostKey(): string | undefined {
  const scope = scopes.getStore();
  return scope === undefined ? undefined : `chat:${scope.eventId}:${scope.next++}`;
}
