import type { BoardbotErrorOptions, ErrorArgs } from '@boardbot/protocol';
import { BoardbotError, createErrorFactory } from '@boardbot/protocol/runtime';

// The root every boardbot error extends, for `instanceof` and `isBoardbotError` without importing protocol.
export { BoardbotError, isBoardbotError } from '@boardbot/protocol/runtime';

// Every error of `@boardbot/mcp`, declared once. What an agent's tool call gets wrong is not thrown:
// it is the tool's result, marked as an error, so the model can read it and try again.
const MCP_ERRORS = createErrorFactory({
  BOARDBOT_MCP_INVALID_OPTION: {
    message: (option: string, problem: string) => `The MCP server's ${option} ${problem}.`,
  },
});

/** Stable codes of the errors `@boardbot/mcp` throws. Match on `error.code`, never on the message. */
export const MCP_ERROR_CODES = MCP_ERRORS.codes;

/** A stable error code of `@boardbot/mcp`. */
export type McpErrorCode = (typeof MCP_ERROR_CODES)[number];

/** Base of every error `@boardbot/mcp` throws; `code` is stable. */
export abstract class BoardbotMcpError extends BoardbotError {
  declare readonly code: McpErrorCode;

  /** Takes the code, the arguments of its message template, and the underlying cause if any. */
  constructor(...[code, args, options]: ErrorArgs<typeof MCP_ERRORS, [options?: BoardbotErrorOptions | undefined]>) {
    super(code, MCP_ERRORS.message(code, args), options);
  }
}

/** An option of the MCP server cannot work (a bound out of range, a host beyond loopback, a short secret). */
export class McpOptionError extends BoardbotMcpError {
  /**
   * @param option - the option's name
   * @param problem - what is wrong with it
   */
  constructor(option: string, problem: string) {
    super('BOARDBOT_MCP_INVALID_OPTION', [option, problem]);
  }
}
