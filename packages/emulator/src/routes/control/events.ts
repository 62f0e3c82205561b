import type { FastifyInstance } from 'fastify';
import { frame, startEventStream } from '../../gateway/sse-stream.js';
import { ACTIVITY_KEY, type Platform } from '../../platform/platform.js';
import { controlRoute } from './shared.js';

/**
 * `GET /events`: the activity stream of everything on the platform, for the playground. It does not
 * replay; a client that reconnects reloads `GET /state` (docs/control-api.md).
 */
export function controlEventRoutes(app: FastifyInstance, p: Platform, keepAliveMs: number): void {
  controlRoute(app, 'openActivityStream', (_request, reply) => {
    reply.hijack();
    const res = reply.raw;
    if (!startEventStream(res)) return;
    const options = { keepAliveMs, bufferBytes: p.limits.streamBufferBytes, logger: p.logger };
    p.activity.open(ACTIVITY_KEY, res, options, frame(p.activityCursor, 'ready', '{"type":"ready"}'));
  });
}
