import type { GatewayDispatch } from '@boardbot/gateway';
import type { Context } from '@opentelemetry/api';
import type { DispatchOutcome } from './outcome.js';

/**
 * A gateway event as the runtime dispatches it: `@boardbot/gateway`'s typed dispatch, unchanged, so a
 * payload checked at the gateway stays typed down to the handler. Narrow on `unknown`, then `name`.
 */
export type BotEvent = GatewayDispatch;

/**
 * Where an event comes from: the gateway's live stream, a message read back over REST after a gap
 * (its id is `backfill:<message id>`, for logs), or a schedule's tick.
 */
export type EventOrigin = 'live' | 'backfill' | 'tick';

/** What a handler run starts from: its event (or tick), as the runner and the telemetry see it. */
export interface EventMeta {
  /** The gateway event id, `backfill:<message id>`, or `tick:<schedule>@<time>`: for logs. */
  id: string;
  /** Where the event comes from. */
  origin: EventOrigin;
  /** What the idempotency keys of the event's runs derive from (`keyBasis` in `dispatch/key-basis.ts`). */
  keyBasis: string;
  /** Whether the event may have been handled by an earlier process (delivered again after a restart). */
  replayed: boolean;
  /** The event's trace context, when the bot traces. */
  trace?: Context | undefined;
  /** Where the event's dispatch collects how its handler runs ended; none for a scheduled tick. */
  outcome?: DispatchOutcome | undefined;
}
