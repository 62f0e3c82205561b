import { LIMITS } from '@boardbot/protocol';
import type { FastifyInstance } from 'fastify';
import type { EmulatorInfo, PlatformState } from '../../control/schemas/responses.js';
import { refuseAsNotFound } from '../../http/error-handler.js';
import type { Platform } from '../../platform/platform.js';
import { loadSeed } from '../../platform/seed.js';
import type { ServerDeps } from '../../server-deps.js';
import { emulatorUrls } from '../../urls.js';
import { EMULATOR_VERSION } from '../../version.js';
import { controlDirectoryRoutes } from './directory.js';
import { controlEventRoutes } from './events.js';
import { controlInteractionRoutes } from './interactions.js';
import { controlMessageRoutes } from './messages.js';
import { ADMIN, appInfo, controlRoute, ctl } from './shared.js';
import { controlWhyRoutes } from './why.js';

/** The control API under `/_emulator/v1` (docs/control-api.md), behind the admin key. */
export function controlRoutes(app: FastifyInstance, p: Platform, deps: ServerDeps): void {
  controlRoute<{ Reply: EmulatorInfo }>(app, 'getInfo', (request) => {
    const urls = deps.urls() ?? emulatorUrls(`${request.protocol}://${request.host}`, deps.adminKey);
    return {
      version: EMULATOR_VERSION,
      api_url: urls.apiUrl,
      playground_url: urls.playgroundUrl,
      limits: {
        ...LIMITS,
        ...p.limits,
        rateLimitRequests: deps.options.rateLimit.requests,
        rateLimitWindowMs: deps.options.rateLimit.windowMs,
        keepAliveMs: deps.options.keepAliveMs,
      },
    };
  });

  controlRoute<{ Reply: PlatformState }>(app, 'getState', () => ({
    users: p.store.users.all(),
    boards: p.store.boards.all(),
    apps: p.store.apps.all().map((a) => appInfo(p, a)),
  }));

  controlRoute(app, 'reset', (_request, reply) => {
    p.write((out) => {
      p.store.clear();
      out.activityEvent('reset', {});
      // Every app is gone, so are their streams (once the reset is committed); activity streams stay.
      out.afterCommit.push(() => p.gateway.endAll());
    });
    p.notifyReset();
    return reply.code(204).send();
  });

  controlRoute<{ Reply: PlatformState }>(app, 'seed', () => {
    const seed = loadSeed(p, deps.devToken);
    return { users: seed.users, boards: seed.boards, apps: seed.apps.map((a) => appInfo(p, a)) };
  });

  controlDirectoryRoutes(app, p);
  controlMessageRoutes(app, p);
  controlWhyRoutes(app, p);
  controlInteractionRoutes(app, p);
  controlEventRoutes(app, p, deps.options.keepAliveMs);
  // Unknown control paths are behind the admin key too: without it, nothing is said about them.
  const unknown = { ...ADMIN, onRequest: refuseAsNotFound };
  app.all(ctl(''), unknown, async () => undefined);
  app.all(ctl('/*'), unknown, async () => undefined);
}
