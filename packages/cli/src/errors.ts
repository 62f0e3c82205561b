import { EXIT_CODES, type ExitCode } from './exit-codes.js';

/**
 * Stable codes of the errors the CLI reports. Match on `code`; messages say how to fix the problem
 * and may be reworded.
 */
export const CLI_ERROR_CODES = [
  'BOARDBOT_CLI_CONFIG',
  'BOARDBOT_CLI_MISSING_TOKEN',
  'BOARDBOT_CLI_PROJECT',
  'BOARDBOT_CLI_BOT_MODULE',
  'BOARDBOT_CLI_PORT_IN_USE',
  'BOARDBOT_CLI_COMMANDS_DRIFT',
  'BOARDBOT_CLI_INVOCATION',
] as const;

/** A stable error code of the CLI. */
export type CliErrorCode = (typeof CLI_ERROR_CODES)[number];

/** Base of every error the CLI reports on purpose: a stable `code` and the process exit code. */
export class CliError extends Error {
  /** Stable code to match on. */
  readonly code: CliErrorCode;
  /** The exit code the CLI ends with. */
  readonly exitCode: ExitCode;

  /**
   * @param code - the stable code
   * @param message - what is wrong and how to fix it
   * @param exitCode - see {@link EXIT_CODES}
   * @param options - the underlying cause, if any
   */
  constructor(code: CliErrorCode, message: string, exitCode: ExitCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** A flag, an environment variable or a `.env` value is invalid (exit code 2). */
export class ConfigError extends CliError {
  /** @param message - which value, where it came from, and what is expected */
  constructor(message: string) {
    super('BOARDBOT_CLI_CONFIG', message, EXIT_CODES.usage);
  }
}

/** The command talks to the platform but no app token is configured (exit code 2). */
export class MissingTokenError extends CliError {
  /** @param command - the command that needs the token, e.g. `boardbot start` */
  constructor(command: string) {
    super(
      'BOARDBOT_CLI_MISSING_TOKEN',
      `${command} needs the app token, and BOARDBOT_TOKEN is not set. Fix: put BOARDBOT_TOKEN=<token> in .env ` +
        '(see .env.example) or in the environment, or pass --token. To run against the local emulator, ' +
        'use `boardbot dev`, which needs no token.',
      EXIT_CODES.usage,
    );
  }
}

/** The working directory is not a bot project, or a file the command needs is missing (exit code 2). */
export class ProjectError extends CliError {
  /** @param message - what is missing and how to fix it */
  constructor(message: string) {
    super('BOARDBOT_CLI_PROJECT', message, EXIT_CODES.usage);
  }
}

/** The bot module cannot be loaded or does not export handlers (exit code 2). */
export class BotModuleError extends CliError {
  /**
   * @param message - what is wrong and how to fix it
   * @param cause - the import failure, if any
   */
  constructor(message: string, cause?: unknown) {
    super('BOARDBOT_CLI_BOT_MODULE', message, EXIT_CODES.usage, cause === undefined ? undefined : { cause });
  }
}

/** The emulator's port is taken (exit code 1). */
export class PortInUseError extends CliError {
  /**
   * @param host - the interface
   * @param port - the port that is taken
   */
  constructor(host: string, port: number) {
    super(
      'BOARDBOT_CLI_PORT_IN_USE',
      `Port ${port} on ${host} is already in use (another emulator or \`boardbot dev\`?). Fix: stop it, or pass ` +
        '--port <another port> (--port 0 picks a free one).',
      EXIT_CODES.failure,
    );
  }
}

/** `boardbot commands diff` found drift (exit code 3); the plan itself was printed before. */
export class CommandsDriftError extends CliError {
  constructor() {
    super(
      'BOARDBOT_CLI_COMMANDS_DRIFT',
      'The registered commands differ from the declared ones. Fix: run `boardbot commands sync`.',
      EXIT_CODES.drift,
    );
  }
}

/** `boardbot invoke` was refused by the emulator, or the bot did not answer in time (exit code 1). */
export class InvocationError extends CliError {
  /** @param message - what happened and what to check */
  constructor(message: string) {
    super('BOARDBOT_CLI_INVOCATION', message, EXIT_CODES.failure);
  }
}
