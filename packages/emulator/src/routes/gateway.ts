import type { FastifyInstance } from 'fastify';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform/platform.js';
import { openGatewayStream, parseLastEventId } from './gateway-stream.js';
import { api, appOf } from './shared.js';

/** Endpoint 13: the app's server-sent event stream. */
export function gatewayRoutes(app: FastifyInstance, p: Platform, keepAliveMs: number): void {
  app.get(api('/gateway'), { config: { auth: 'app' } }, (request, reply) => {
    const bot = appOf(request);
    // CONTRACT: at most 16 open streams per app; the 17th gets `429 rate_limited`.
    if (p.gateway.count(bot.id) >= p.limits.gatewayStreams) {
      throw new PlatformError(
        'rate_limited',
        `The app already has ${p.limits.gatewayStreams} open gateway streams: close one before opening another`,
        { retryAfter: 1 },
      );
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = String(v);
    reply.hijack();
    openGatewayStream(p, reply.raw, bot.id, parseLastEventId(request.headers['last-event-id']), headers, keepAliveMs);
  });
}
