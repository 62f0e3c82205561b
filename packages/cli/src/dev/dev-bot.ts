import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type * as Core from '@boardbot/core';
import { RestClient } from '@boardbot/rest';
import type { CliConfig } from '../config/load-config.js';
import type { CliIo } from '../io.js';
import type { BotProject } from '../project/project.js';
import { importFromProject } from '../project/project-modules.js';
import { GatewayRelay } from './gateway-relay.js';
import { RelayedBot } from './relayed-bot.js';

/** The CLI's own built entry (its package's `bin`), which runs the bot as `boardbot start` in the child process. */
const CLI_BIN = join(dirname(createRequire(import.meta.url).resolve('@boardbot/cli/package.json')), 'dist/bin.js');

/** What {@link devBot} runs the bot with. */
export interface DevBotOptions {
  /** The bot's project. */
  project: BotProject;
  /** The entry given with `--entry`, if any (else the bot runs from its definition when it has one). */
  entryFlag: boolean;
  /** The `--env-file` given to `dev`, resolved. @defaultValue none */
  envFile?: string | undefined;
  /** The resolved configuration (its `.env` values come along to the bot). */
  config: CliConfig;
  /** Output and environment. */
  io: CliIo;
  /** The emulator's app API URL. */
  apiUrl: string;
  /** The dev-bot app's token. */
  devToken: string;
  /**
   * Told when a bot process exits by itself.
   * @param before - whether it had not started yet while the one before it still runs (it goes on)
   */
  onExit: (code: number | null, signal: NodeJS.Signals | null, before: boolean) => void;
}

/**
 * The bot of `boardbot dev`: run as `boardbot start` would run it, from its definition when the bot
 * module exports one, else its entry, decided afresh in each child, which loads the latest build; fed
 * by the gateway connection `dev` holds, whose resume point is kept where `boardbot start` keeps it.
 *
 * @param options - see {@link DevBotOptions}
 */
export function devBot(options: DevBotOptions): RelayedBot {
  const { project, config, io, apiUrl, devToken } = options;
  const entryArgs = options.entryFlag ? ['--entry', project.entry] : [];
  const envArgs = options.envFile !== undefined ? ['--env-file', options.envFile] : [];
  const botEnv: NodeJS.ProcessEnv = {
    ...config.fileValues,
    ...io.env,
    BOARDBOT_TOKEN: devToken,
    BOARDBOT_API_URL: apiUrl,
    LOG_LEVEL: config.logLevel,
  };
  return new RelayedBot({
    entry: CLI_BIN,
    args: ['start', '--no-gc-after-start', ...entryArgs, ...envArgs],
    cwd: project.dir,
    // The bot's own .env values come along; the emulator's URL and token win over any production ones.
    env: botEnv,
    output: io.isTTY ? 'inherit' : { out: io.out, err: io.err },
    // The connection the bot processes are fed from, and the resume point where `boardbot start` keeps it.
    relay: async () => {
      const rest = new RestClient({ token: devToken, baseUrl: apiUrl });
      const app = await rest.getApp().finally(() => rest.close());
      const core = await importFromProject<typeof Core>(project.dir, '@boardbot/core', () => import('@boardbot/core'));
      const stateDir = resolve(project.dir, botEnv.BOARDBOT_STATE_DIR ?? '.boardbot');
      const positions = new core.FilePositionStore(stateDir);
      return new GatewayRelay({
        ...{ token: devToken, apiUrl, appId: app.id, positions },
        ...{ log: io.err, out: io.out },
      });
    },
    onUnexpectedExit(code, signal, before) {
      io.err(
        before
          ? `The bot exited (${signal ?? `code ${code}`}) before it started: the one before it goes on. Fix the error above and save: it reloads on the saved code.`
          : `The bot exited (${signal ?? `code ${code}`}). Fix the error above and save: it restarts on the saved code.`,
      );
      options.onExit(code, signal, before);
    },
  });
}
