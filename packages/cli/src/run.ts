import { CommanderError } from 'commander';
import { CliError } from './errors.js';
import { EXIT_CODES } from './exit-codes.js';
import type { CliIo } from './io.js';
import { LoggedFailure } from './logged-failure.js';
import { createProgram } from './program.js';

function hint(error: Error & { code?: unknown }): string {
  switch (error.code) {
    case 'BOARDBOT_NETWORK':
    case 'BOARDBOT_TIMEOUT':
      // The REST client's message names the URL and ends with a full stop; this says where the URL came from.
      return ' The address comes from BOARDBOT_API_URL (or --api-url); for the local emulator, run `boardbot emulator` or `boardbot dev`.';
    default:
      return '';
  }
}

/**
 * Runs `boardbot` with `argv` (`process.argv` shape) and returns the exit code: 0 ok, 1 failure,
 * 2 usage or configuration error, 3 drift found by `commands diff` (see `EXIT_CODES`). Every error is
 * printed once, with its code and its fix; nothing is thrown.
 *
 * @param argv - the arguments, the first two being node and the script
 * @param io - output, environment and signals
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code: number = EXIT_CODES.ok;
  const tracked: CliIo = {
    ...io,
    exit: (c) => {
      code = c;
      io.exit(c);
    },
  };
  // Spreading would read `cwd` once: keep the live getter of the process I/O.
  Object.defineProperty(tracked, 'cwd', { get: () => io.cwd, enumerable: true });
  try {
    await createProgram(tracked).parseAsync([...argv]);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed the problem and the help already; 0 is `--help` and `--version`.
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    if (error instanceof LoggedFailure) {
      // The bot's log said the error; what the CLI knows beside it (where the URL came from) it says.
      const said = error.cause instanceof Error ? hint(error.cause).trim() : '';
      if (said !== '') io.err(said);
      return EXIT_CODES.failure;
    }
    if (error instanceof CliError) {
      io.err(`error ${error.code}: ${error.message}`);
      return error.exitCode;
    }
    const e: Error & { code?: unknown } = error instanceof Error ? error : new Error(String(error));
    io.err(`error${typeof e.code === 'string' ? ` ${e.code}` : ''}: ${e.message}${hint(e)}`);
    return EXIT_CODES.failure;
  }
}
