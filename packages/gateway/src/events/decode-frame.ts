import { type Checker, GATEWAY_EVENT_CHECKERS } from '@boardbot/protocol/runtime';
import { GatewayMalformedEventError } from '../errors.js';
import type { GatewayDispatch } from '../types.js';

// The shapes only: string formats and patterns are not re-checked (see `GATEWAY_EVENT_CHECKERS`).
const checkers = new Map<string, Checker<unknown>>(Object.entries(GATEWAY_EVENT_CHECKERS));

// Returned by parse() instead of a wrapper object per event: this runs for every event.
const INVALID = Symbol('invalid JSON');
let lastParseError = '';

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (err) {
    lastParseError = (err as Error).message;
    return INVALID;
  }
}

/**
 * Turns one SSE frame into a delivered event. A known event must have the shape of its protocol
 * schema (types and required fields; formats are not re-checked), so no garbage reaches a handler as
 * typed data; an unknown name is passed through raw (CONTRACT.md "Tolerance": unknown event names are
 * surfaced, never a crash).
 *
 * @param name - The frame's `event:` (`message` when it had none).
 * @param id - The frame's `id:` (empty when it had none).
 * @param data - The frame's `data:` text.
 * @returns The event, or the error that says why a known event was skipped.
 */
export function decodeFrame(name: string, id: string, data: string): GatewayDispatch | GatewayMalformedEventError {
  const value = parse(data);
  const checker = checkers.get(name);
  if (checker === undefined) return { name, id, data: value === INVALID ? data : value, unknown: true };
  if (value === INVALID) {
    return new GatewayMalformedEventError(name, id, [{ path: '/', message: `invalid JSON (${lastParseError})` }]);
  }
  if (checker.is(value)) return { name, id, data: value } as GatewayDispatch;
  const result = checker.check(value);
  return new GatewayMalformedEventError(name, id, result.ok ? [] : result.issues);
}
