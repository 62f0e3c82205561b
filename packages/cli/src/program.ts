import { Command } from 'commander';
import { registerCommandsCommand } from './commands/commands.js';
import { registerDevCommand } from './commands/dev.js';
import { registerEmulatorCommand } from './commands/emulator.js';
import { registerInvokeCommand } from './commands/invoke.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerStartCommand } from './commands/start.js';
import type { CliIo } from './io.js';
import { CLI_VERSION } from './version.js';

/** Options of {@link createProgram}. */
export interface ProgramOptions {
  /**
   * Throw a `CommanderError` on bad usage instead of exiting the process; `runCli` maps it to exit
   * code 2. `false` lets commander exit by itself.
   * @defaultValue true
   */
  exitOverride?: boolean;
}

/** The `boardbot` program; each command lives in its own file under `commands/`. */
export function createProgram(io: CliIo, options: ProgramOptions = {}): Command {
  const program = new Command('boardbot').description('Build, run and test board-chat bots').showHelpAfterError();
  program.configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  // Usage errors throw instead of exiting, so `runCli` maps them to exit code 2; set before the
  // commands are added, which inherit it.
  if (options.exitOverride !== false) program.exitOverride();
  program.version(CLI_VERSION, '-v, --version', 'print the version');
  program.addHelpText(
    'after',
    '\nConfiguration: flags > environment > .env > defaults (BOARDBOT_TOKEN, BOARDBOT_API_URL, LOG_LEVEL).\n' +
      'Exit codes: 0 ok, 1 failure, 2 usage or configuration error, 3 drift found by `commands diff`.',
  );
  registerDevCommand(program, io);
  registerStartCommand(program, io);
  registerEmulatorCommand(program, io);
  registerCommandsCommand(program, io);
  registerInvokeCommand(program, io);
  registerMcpCommand(program, io);
  return program;
}
