import { checkerFor, type Embed, InteractionResponseBody, messageBodyIssues } from '@boardbot/protocol';
import { InvalidReplyError } from '../errors.js';
import type { ReplyBody } from './context.js';

/** A message body on the wire. */
export interface WireBody {
  content?: string;
  embeds?: Embed[];
}

/**
 * Turns a handler's reply (text or body) into the wire body, checked against the contract's
 * message rules first, so a bad reply fails with a clear error instead of a `400` round trip.
 *
 * @param body - text, or `{ content, embeds }`
 */
export function toWireBody(body: ReplyBody): WireBody {
  const wire: WireBody = typeof body === 'string' ? { content: body } : pick(body);
  const schema = checkerFor(InteractionResponseBody).check(wire);
  const issues = [...(schema.ok ? [] : schema.issues), ...messageBodyIssues(wire)];
  if (issues.length > 0) throw new InvalidReplyError(issues.map((i) => `${i.path} ${i.message}`));
  return wire;
}

function pick(body: Exclude<ReplyBody, string>): WireBody {
  const wire: WireBody = {};
  if (body.content !== undefined) wire.content = body.content;
  if (body.embeds !== undefined) wire.embeds = body.embeds;
  return wire;
}

/** Whether a handler's return value is something to reply with. */
export function isReplyBody(value: unknown): value is ReplyBody {
  if (typeof value === 'string') return value.length > 0;
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  // `return ctx.send(...)` yields the sent Message: it was sent already, it is not a reply to make.
  if ('id' in v && 'seq' in v) return false;
  return typeof v.content === 'string' || Array.isArray(v.embeds);
}
