import {
  type Checker,
  checkerFor,
  GATEWAY_EVENT_SCHEMAS,
  type GatewayEventMap,
  type GatewayEventName,
  isGatewayEventName,
} from '@boardbot/protocol';
import { GatewayMalformedEventError } from '../errors.js';
import type { GatewayDispatch } from '../types.js';

/** The outcome of decoding one frame. */
export type DecodedFrame = { ok: true; event: GatewayDispatch } | { ok: false; error: GatewayMalformedEventError };

const checkers = Object.fromEntries(
  Object.entries(GATEWAY_EVENT_SCHEMAS).map(([name, schema]) => [name, checkerFor(schema)]),
) as { [K in GatewayEventName]: Checker<GatewayEventMap[K]> };

function parseJson(data: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(data) };
  } catch (err) {
    return { ok: false, message: `invalid JSON (${(err as Error).message})` };
  }
}

/**
 * Turns one SSE frame into a delivered event. A known event must match its protocol schema, so no
 * garbage reaches a handler as typed data; an unknown name is passed through raw (CONTRACT.md
 * "Tolerance": unknown event names are surfaced, never a crash).
 *
 * @param name - The frame's `event:` (`message` when it had none).
 * @param id - The frame's `id:` (empty when it had none).
 * @param data - The frame's `data:` text.
 */
export function decodeFrame(name: string, id: string, data: string): DecodedFrame {
  const parsed = parseJson(data);
  if (!isGatewayEventName(name)) {
    return { ok: true, event: { name, id, data: parsed.ok ? parsed.value : data, unknown: true } };
  }
  if (!parsed.ok) {
    return { ok: false, error: new GatewayMalformedEventError(name, id, [{ path: '/', message: parsed.message }]) };
  }
  const checker = checkers[name];
  if (checker.is(parsed.value)) {
    return { ok: true, event: { name, id, data: parsed.value } as GatewayDispatch };
  }
  const result = checker.check(parsed.value);
  const issues = result.ok ? [] : result.issues;
  return { ok: false, error: new GatewayMalformedEventError(name, id, issues) };
}
