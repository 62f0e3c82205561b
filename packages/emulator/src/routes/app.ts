import { commandSetIssues, ReplaceCommandsBody } from '@boardbot/protocol';
import type { FastifyInstance } from 'fastify';
import { assertNoIssues } from '../http/validation.js';
import { replaceCommands } from '../platform/commands.js';
import type { Platform } from '../platform/platform.js';
import { toApp } from '../store/apps.js';
import { api, appOf } from './shared.js';

/** Endpoints 9 to 11: the app record and its slash commands. */
export function appRoutes(app: FastifyInstance, p: Platform): void {
  app.get(api('/app'), { config: { auth: 'app' } }, (request) => toApp(appOf(request)));

  app.get(api('/app/commands'), { config: { auth: 'app' } }, (request) => ({
    commands: p.store.commands.list(appOf(request).id),
  }));

  app.put<{ Body: ReplaceCommandsBody }>(
    api('/app/commands'),
    { config: { auth: 'app' }, schema: { body: ReplaceCommandsBody } },
    (request) => {
      const bot = appOf(request);
      assertNoIssues(commandSetIssues(request.body));
      const commands = p.write((out) => replaceCommands(p, out, bot.id, request.body));
      return { commands };
    },
  );
}
