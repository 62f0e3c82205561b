import type { InteractionResponseBody } from '@boardbot/protocol';
import type { ReplyBody } from './context.js';

/**
 * Turns a handler's reply (text or body) into the wire body. It is not checked here: the REST client
 * checks every body it sends against the contract's message rules (`BOARDBOT_INVALID_ARGUMENT`, listing
 * each problem, before any request), so a reply and a call on `ctx.rest` are checked once, the same way.
 *
 * @param body - text, or `{ content, embeds }`
 */
export function toWireBody(body: ReplyBody): InteractionResponseBody {
  if (typeof body === 'string') return { content: body };
  const wire: InteractionResponseBody = {};
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
