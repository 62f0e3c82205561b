import type { BotEvent } from '@boardbot/core';
import { type Checker, GATEWAY_EVENT_CHECKERS } from '@boardbot/protocol/runtime';

// The shapes only, as the gateway checks a frame (string formats and patterns are not re-checked).
const checkers = new Map<string, Checker<unknown>>(Object.entries(GATEWAY_EVENT_CHECKERS));

/** A stream entry that is no event: why, for the dead letter and the log. */
export interface Malformed {
  reason: string;
}

/**
 * The event a stream entry holds, checked as the gateway checks a frame before any handler sees it:
 * a known event's `data` must have its protocol schema's shape; an event the reader did not know is
 * passed on raw, as the gateway passed it. Anything else (a payload that is not JSON, not an event,
 * or a known event of the wrong shape: written by another program, or by a version with another
 * protocol) is {@link Malformed}.
 *
 * @param payload - the entry's `e` field
 */
export function decodeEntry(payload: string | undefined): BotEvent | Malformed {
  let value: unknown;
  try {
    value = JSON.parse(payload ?? '');
  } catch {
    return { reason: 'its payload is not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { reason: 'its payload is not an event' };
  const { name, id, data, unknown } = value as Record<string, unknown>;
  if (typeof name !== 'string' || typeof id !== 'string') return { reason: 'its payload has no event name and id' };
  const checker = checkers.get(name);
  if (checker === undefined) {
    return unknown === true ? { name, id, data, unknown: true } : { reason: `its event ${name} is not one it knows` };
  }
  if (checker.is(data)) return { name, id, data } as BotEvent;
  const result = checker.check(data);
  const issues = result.ok ? [] : result.issues.map((issue) => `${issue.path} ${issue.message}`);
  return { reason: `its ${name} event does not have the protocol's shape: ${issues.join('; ')}` };
}

/** Whether what {@link decodeEntry} gave is no event. */
export function isMalformed(decoded: BotEvent | Malformed): decoded is Malformed {
  return 'reason' in decoded;
}
