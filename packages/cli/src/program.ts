import { Command } from 'commander';
import { registerEmulatorCommand } from './commands/emulator.js';
import type { CliIo } from './io.js';

/** Options of {@link createProgram}. */
export interface ProgramOptions {
  /**
   * Throw a `CommanderError` on bad usage instead of exiting the process (for tests and embedding).
   * @defaultValue false
   */
  exitOverride?: boolean;
}

/** The `boardbot` program; each command lives in its own file under `commands/`. */
export function createProgram(io: CliIo, options: ProgramOptions = {}): Command {
  const program = new Command('boardbot').description('Build, run and test board-chat bots').showHelpAfterError();
  program.configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  // Set before the commands are added, so that they inherit it.
  if (options.exitOverride) program.exitOverride();
  registerEmulatorCommand(program, io);
  return program;
}
