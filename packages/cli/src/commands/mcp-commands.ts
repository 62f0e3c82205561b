import { join } from 'node:path';
import type * as CoreAgents from '@boardbot/core/agents';
import type { McpCommandSource } from '@boardbot/mcp';
import type { RestClient } from '@boardbot/rest';
import type { CliConfig } from '../config/load-config.js';
import { ConfigError } from '../errors.js';
import { loadDefinition } from '../project/load-bot-module.js';
import { resolveProject } from '../project/project.js';
import { importFromProject } from '../project/project-modules.js';

/** The bot's commands as `boardbot mcp` offers them, and how to stop the bot behind them. */
export interface ProjectCommands extends McpCommandSource {
  close(): Promise<void>;
}

/**
 * The project's bot's commands for `boardbot mcp --writes`: its definition (the built bot module's
 * default export) opened by core's `openBotCommands`, which starts the bot without its events
 * (nothing consumed, no command sync, no schedules), its writes through the server's REST client
 * (the same rate limit), its logs on stderr. Undefined when the project has no definition.
 *
 * @param flags - `--bot`, `--cwd` and `--as`
 * @param config - the token, API URL and log level
 * @param cwd - the working directory
 * @param rest - the server's REST client
 * @param env - the environment (`BOARDBOT_STATE_DIR`)
 * @throws ConfigError when `--as` is given and there is no definition to run commands of
 */
export async function openProjectCommands(
  flags: { bot?: string | undefined; cwd?: string | undefined; as?: string | undefined },
  config: CliConfig,
  cwd: string,
  rest: RestClient,
  env: NodeJS.ProcessEnv,
): Promise<ProjectCommands | undefined> {
  const project = resolveProject(flags, cwd);
  const loaded = await loadDefinition(project);
  if (!loaded) {
    if (flags.as === undefined) return undefined;
    throw new ConfigError(
      `--as runs the bot's commands, and ${project.botModule} does not default-export the bot's definition ` +
        '(export default defineBot({ handlers })): build the bot (npm run build), or point --bot at its module.',
    );
  }
  const { openBotCommands } = await importFromProject<typeof CoreAgents>(
    project.dir,
    '@boardbot/core/agents',
    () => import('@boardbot/core/agents'),
  );
  const own = loaded.definition.options;
  return openBotCommands(loaded.definition, {
    rest,
    apiUrl: config.apiUrl,
    ...(own.token === undefined && config.token !== undefined && { token: config.token }),
    ...(own.logger === undefined && { logger: { level: config.logLevel } }),
    // Its sessions and cooldowns where the bot started in its directory keeps them.
    ...(own.stateDir === undefined && !env.BOARDBOT_STATE_DIR && { stateDir: join(project.dir, '.boardbot') }),
  });
}
