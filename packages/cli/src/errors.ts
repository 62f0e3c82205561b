import {
  BoardbotError,
  type BoardbotErrorOptions,
  createErrorFactory,
  type ErrorArgs,
} from '@boardbot/protocol/error-root';
import { addFlags } from './advice.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';

// Every error the CLI reports on purpose, declared once: its stable code, the exit code the CLI ends
// with, and its message (what is wrong and how to fix it).
const CLI_ERRORS = createErrorFactory({
  BOARDBOT_CLI_CONFIG: { exit: EXIT_CODES.usage, message: (message: string) => message },
  BOARDBOT_CLI_MISSING_TOKEN: {
    exit: EXIT_CODES.usage,
    message: (command: string) =>
      `${command} needs the app token, and BOARDBOT_TOKEN is not set. Fix: put BOARDBOT_TOKEN=<token> in .env ` +
      '(see .env.example) or in the environment, or pass --token. To run against the local emulator, ' +
      'use `boardbot dev`, which needs no token.',
  },
  BOARDBOT_CLI_PROJECT: { exit: EXIT_CODES.usage, message: (message: string) => message },
  BOARDBOT_CLI_BOT_MODULE: { exit: EXIT_CODES.usage, message: (message: string) => message },
  BOARDBOT_CLI_PORT_IN_USE: {
    exit: EXIT_CODES.failure,
    message: (host: string, port: number, freePort: string) =>
      `Port ${port} on ${host} is already in use (another emulator or \`boardbot dev\`?). Fix: stop it, or run ` +
      `this one on another port: ${freePort} (a free one) or --port <another port>.`,
  },
  BOARDBOT_CLI_DB_IN_USE: {
    exit: EXIT_CODES.failure,
    message: (db: string, holder: string, beside: string) =>
      `The emulator database ${db} is in use by ${holder}: two emulators on one file would corrupt it. Fix: ` +
      `stop that one, or run this one beside it with its own database and port: ${beside}.`,
  },
  BOARDBOT_CLI_SEVERAL_DEV: {
    exit: EXIT_CODES.usage,
    message: (running: string, choose: string) =>
      `Several \`boardbot dev\` run in this project: ${running}. Fix: choose one with --dev <port or pid>: ` +
      `${choose}, for example.`,
  },
  BOARDBOT_CLI_INVOCATION: { exit: EXIT_CODES.failure, message: (message: string) => message },
});

/**
 * Stable codes of the errors the CLI reports. Match on `code`; messages say how to fix the problem
 * and may be reworded.
 */
export const CLI_ERROR_CODES = CLI_ERRORS.codes;

/** A stable error code of the CLI. */
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** Base of every error the CLI reports on purpose: a stable `code` and the process exit code. */
export abstract class CliError extends BoardbotError {
  declare readonly code: CliErrorCode;
  /** The exit code the CLI ends with (see {@link EXIT_CODES}). */
  readonly exitCode: ExitCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(...[code, args, options]: ErrorArgs<typeof CLI_ERRORS, [options?: BoardbotErrorOptions | undefined]>) {
    super(code, CLI_ERRORS.message(code, args), options);
    this.exitCode = CLI_ERRORS.spec(code).exit;
  }
}

/** A flag, an environment variable or a `.env` value is invalid (exit code 2). */
export class ConfigError extends CliError {
  /** @param message - which value, where it came from, and what is expected */
  constructor(message: string) {
    super('BOARDBOT_CLI_CONFIG', [message]);
  }
}

/** The command talks to the platform but no app token is configured (exit code 2). */
export class MissingTokenError extends CliError {
  /** @param command - the command that needs the token, e.g. `boardbot start` */
  constructor(command: string) {
    super('BOARDBOT_CLI_MISSING_TOKEN', [command]);
  }
}

/** The working directory is not a bot project, or a file the command needs is missing (exit code 2). */
export class ProjectError extends CliError {
  /** @param message - what is missing and how to fix it */
  constructor(message: string) {
    super('BOARDBOT_CLI_PROJECT', [message]);
  }
}

/** The bot module cannot be loaded or does not export handlers (exit code 2). */
export class BotModuleError extends CliError {
  /**
   * @param message - what is wrong and how to fix it
   * @param cause - the import failure, if any
   */
  constructor(message: string, cause?: unknown) {
    super('BOARDBOT_CLI_BOT_MODULE', [message], { cause });
  }
}

/** The emulator's port is taken (exit code 1). */
export class PortInUseError extends CliError {
  /**
   * @param host - the interface
   * @param port - the port that is taken
   * @param env - the CLI's environment: through an npm script, the fix says `npm run <script> -- --port 0`
   */
  constructor(host: string, port: number, env: NodeJS.ProcessEnv = {}) {
    super('BOARDBOT_CLI_PORT_IN_USE', [host, port, addFlags('--port 0', env)]);
  }
}

/**
 * Another emulator (a `boardbot dev` or `boardbot emulator`) holds the database file (exit code 1);
 * the fix names a free sibling file and a free port.
 */
export class DatabaseInUseError extends CliError {
  /**
   * @param db - the database file, as the user named it
   * @param holder - who holds it: `pid 123 at http://127.0.0.1:8787`, or that it cannot be told
   * @param sibling - a file to use instead, e.g. `.boardbot/emulator-2.db`
   * @param cause - the emulator's `BOARDBOT_EMULATOR_DB_IN_USE`
   * @param env - the CLI's environment: through an npm script, the fix puts the flags after `--`
   */
  constructor(db: string, holder: string, sibling: string, cause?: unknown, env: NodeJS.ProcessEnv = {}) {
    super('BOARDBOT_CLI_DB_IN_USE', [db, holder, addFlags(`--db ${sibling} --port 0`, env)], { cause });
  }
}

/** `boardbot invoke` found several running `boardbot dev` in the project and was not told which (exit code 2). */
export class SeveralDevError extends CliError {
  /**
   * @param running - each instance: its pid, port and database
   * @param example - a port to show in the fix
   * @param env - the CLI's environment: through an npm script, the fix puts the flag after `--`
   */
  constructor(running: string, example: number, env: NodeJS.ProcessEnv = {}) {
    super('BOARDBOT_CLI_SEVERAL_DEV', [running, addFlags(`--dev ${example}`, env)]);
  }
}

/** `boardbot invoke` was refused by the emulator, or the bot did not answer in time (exit code 1). */
export class InvocationError extends CliError {
  /** @param message - what happened and what to check */
  constructor(message: string) {
    super('BOARDBOT_CLI_INVOCATION', [message]);
  }
}
