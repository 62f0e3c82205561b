import { Command } from 'commander';
import { registerEmulatorCommand } from './commands/emulator.js';
import type { CliIo } from './io.js';

/** The `boardbot` program; each command lives in its own file under `commands/`. */
export function createProgram(io: CliIo): Command {
  const program = new Command('boardbot').description('Build, run and test board-chat bots').showHelpAfterError();
  program.configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  registerEmulatorCommand(program, io);
  return program;
}
