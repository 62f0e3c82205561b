import { type Command, InvalidArgumentError } from 'commander';
import type { ConfigFlags } from '../config/load-config.js';
import type { ProjectFlags } from '../project/project.js';

/** The flags of {@link addConfigOptions}. */
export interface CommonFlags extends ConfigFlags {
  /** `-C, --cwd`: the bot project directory. */
  cwd?: string | undefined;
}

/**
 * Adds the configuration flags (`--token`, `--api-url`, `--log-level`, `--env-file`, `--cwd`) to a
 * command; each wins over its environment variable and the `.env` file.
 *
 * @param command - the command
 * @param which - leave out flags a command has no use for
 */
export function addConfigOptions(command: Command, which: { token?: boolean; apiUrl?: boolean } = {}): Command {
  command.option('-C, --cwd <dir>', 'the bot project directory (default: the current directory)');
  command.option('--env-file <path>', 'the .env file to read (default: .env in the project, if present)');
  if (which.token !== false) {
    command.option('--token <token>', 'the app token (default: BOARDBOT_TOKEN); prefer .env: flags show in `ps`');
  }
  if (which.apiUrl !== false) {
    command.option('--api-url <url>', 'the app API base URL (default: BOARDBOT_API_URL, else the local emulator)');
  }
  command.option(
    '--log-level <level>',
    "the bot's log level: trace, debug, info, warn, error, fatal, silent (default: LOG_LEVEL, else info)",
  );
  return command;
}

/**
 * Adds the project path flags (`--entry`, `--bot`, `--tsconfig`) a command uses.
 *
 * @param command - the command
 * @param which - the flags to add
 */
export function addProjectOptions(command: Command, which: readonly (keyof ProjectFlags)[]): Command {
  if (which.includes('entry')) {
    command.option(
      '--entry <file>',
      'the built file that starts the bot (default: package.json main, else dist/main.js)',
    );
  }
  if (which.includes('bot')) {
    command.option('--bot <file>', 'the built bot module that exports `handlers` (default: dist/bot.js)');
  }
  if (which.includes('tsconfig')) {
    command.option('--tsconfig <file>', 'the TypeScript project to compile (default: tsconfig.json)');
  }
  return command;
}

/**
 * Reads a port flag: a whole number from 0 (any free port) to 65535.
 * @param value - the flag's text
 */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('Expected a port number from 0 to 65535.');
  return port;
}
