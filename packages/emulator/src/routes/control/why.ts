import type { FastifyInstance } from 'fastify';
import type { MessageWhy, WhyEvent } from '../../control/schemas/why.js';
import { findMessage } from '../../platform/messages.js';
import type { Platform } from '../../platform/platform.js';
import { controlRoute } from './shared.js';

/** The event an app was sent, by id, while the log retains it. */
function eventOf(p: Platform, appId: string | undefined, eventId: string | null): WhyEvent | null {
  if (appId === undefined || eventId === null || !/^\d{1,15}$/.test(eventId)) return null;
  const id = Number(eventId);
  const [row] = p.store.events.after(appId, id - 1, 1, id);
  return row ? { id: String(row.id), name: row.name, data: JSON.parse(row.data) as unknown } : null;
}

/** `GET /boards/{boardId}/messages/{messageId}/why`: what produced an app's message (the playground's "why"). */
export function controlWhyRoutes(app: FastifyInstance, p: Platform): void {
  const { calls } = p;
  controlRoute<{ Params: { boardId: string; messageId: string }; Reply: MessageWhy }>(app, 'whyMessage', (request) => {
    const { boardId, messageId } = request.params;
    const message = findMessage(p, boardId, messageId);
    const call = calls.creatorOf(messageId);
    const appId =
      message.author === null ? undefined : p.store.apps.all().find((a) => a.bot_user_id === message.author)?.id;
    return {
      message_id: messageId,
      handler: call?.handler ?? null,
      request_id: call?.request_id ?? null,
      trace_id: call?.trace_id ?? null,
      event: eventOf(p, appId, call?.event_id ?? null),
      calls: call ? calls.related(call) : [],
      edits: calls.editsOf(messageId),
    };
  });
}
