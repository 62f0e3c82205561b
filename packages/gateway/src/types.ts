import type { GatewayEventMap, GatewayEventName, ReadyEvent } from '@boardbot/protocol';
import type { GatewayError } from './errors.js';

/** A known event as delivered: its wire name, its `id:` and its typed `data:` payload. */
export type KnownGatewayDispatch = {
  [K in GatewayEventName]: { name: K; id: string; data: GatewayEventMap[K]; unknown?: never };
}[GatewayEventName];

/**
 * An event this protocol version does not know, delivered raw so a newer server never crashes an
 * older client (CONTRACT.md "Tolerance"). `data` is the parsed JSON, or the raw text if it is not JSON.
 */
export interface UnknownGatewayDispatch {
  name: string;
  id: string;
  data: unknown;
  unknown: true;
}

/** Every event of the stream, in order, exactly once. Narrow on `name` (or `unknown`). */
export type GatewayDispatch = KnownGatewayDispatch | UnknownGatewayDispatch;

/** Where the client is in its life: `idle` until `connect()`, `closed` for good after `close()`. */
export type GatewayState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Metadata of a typed event. */
export interface GatewayEventMeta {
  /** The frame's `id:`, the resume point once the event is delivered. */
  id: string;
}

/** Payload of `gap`: the server no longer had every event after `lastEventId`. */
export interface GatewayGapInfo {
  /** The id the client resumed from (the first missed event is after it). */
  lastEventId: string | undefined;
  /** The `ready` frame that reported the gap. */
  ready: ReadyEvent;
}

/** Payload of `connecting`. */
export interface GatewayConnectingInfo {
  /** 0 for the first connection, then counts consecutive failed attempts. */
  attempt: number;
  /** The `Last-Event-ID` sent, if any. */
  lastEventId: string | undefined;
}

/** Payload of `reconnecting`: why, and how long the client waits before the next attempt. */
export interface GatewayReconnectingInfo {
  /** Consecutive failed attempts so far (1 after the first failure). */
  attempt: number;
  /** The wait before the next attempt, in milliseconds. */
  delayMs: number;
  /** Why the connection ended. */
  reason: GatewayError;
}

/** Payload of `closed`. */
export interface GatewayClosedInfo {
  /** The fatal error that closed the client, or undefined after `close()`. */
  reason: GatewayError | undefined;
}

/** Every event of `GatewayClient` tied to the arguments of its listeners. */
export type GatewayClientEvents = {
  [K in GatewayEventName]: [data: GatewayEventMap[K], meta: GatewayEventMeta];
} & {
  dispatch: [event: GatewayDispatch];
  gap: [info: GatewayGapInfo];
  connecting: [info: GatewayConnectingInfo];
  open: [];
  reconnecting: [info: GatewayReconnectingInfo];
  closed: [info: GatewayClosedInfo];
  error: [error: GatewayError];
};
