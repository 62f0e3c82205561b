import type { FastifyInstance } from 'fastify';
import type { HubMember } from '../../gateway/hub.js';
import { frame, SseStream } from '../../gateway/sse-stream.js';
import { ACTIVITY_KEY, type Platform } from '../../platform/platform.js';
import { ADMIN, ctl } from './shared.js';

/**
 * `GET /events`: the activity stream of everything on the platform, for the playground. It does not
 * replay; a client that reconnects reloads `GET /state` (docs/control-api.md).
 */
export function controlEventRoutes(app: FastifyInstance, p: Platform, keepAliveMs: number): void {
  app.get(ctl('/events'), ADMIN, (_request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    const member: HubMember = {
      replaying: false,
      stream: new SseStream(res, {
        keepAliveMs,
        bufferBytes: p.limits.streamBufferBytes,
        logger: p.logger,
        onClose: () => p.activity.remove(ACTIVITY_KEY, member),
      }),
    };
    member.stream.write(`retry: 1000\n\n${frame(p.activityCursor, 'ready', '{"type":"ready"}')}`);
    p.activity.add(ACTIVITY_KEY, member);
  });
}
