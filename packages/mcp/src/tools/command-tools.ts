import { type TSchema, Type } from '@sinclair/typebox';
import { McpOptionError } from '../errors.js';
import type { McpCommandCall, McpCommandSource } from '../options.js';
import { type BoardTool, defineTool, Id } from './tool.js';
import { IdempotencyKey } from './write-tools.js';

/** Names the tool's own arguments take, which an option may not. */
const OWN = ['board_id', 'idempotency_key'];

/** The call of a command a tool's arguments make: its board, its options, its key. */
function commandCall(args: Record<string, unknown>, as: string | undefined): McpCommandCall {
  const { board_id, idempotency_key, ...input } = args;
  return {
    boardId: board_id as string,
    as,
    input: input as Record<string, string | number | boolean>,
    ...(idempotency_key !== undefined && { key: idempotency_key as string }),
  };
}

/**
 * The command tools: `command_<name>`, each with `board_id`, the command's options and an optional
 * `idempotency_key`, offered only when the server allows writes (a command may write). The options
 * are shown to the model with their registered schema but checked by the command itself (as a text
 * invocation's are, then by its options class), so that a bad value is told in the command's words.
 * @param source - the bot's commands
 * @param as - the user id commands run as; none: the app, and a command with guards is refused
 * @throws McpOptionError for an option named as one of the tool's own arguments
 */
export function commandTools(source: McpCommandSource, as: string | undefined): BoardTool[] {
  const check = source.check?.bind(source);
  return source.commands.map((command) => {
    const { name, shownAs, inputSchema, guards } = command;
    const options: Record<string, TSchema> = {};
    for (const [option, schema] of Object.entries(inputSchema.properties)) {
      if (OWN.includes(option))
        throw new McpOptionError('commands', `include ${shownAs}, whose option ${option} is a tool argument`);
      // Shown as registered, checked by the command: `Any` carries the schema and accepts the value.
      const shown = Type.Any(schema);
      options[option] = inputSchema.required.includes(option) ? shown : Type.Optional(shown);
    }
    const whom = as === undefined ? 'as the app' : `as user ${as}`;
    const refused =
      guards.length > 0 && as === undefined
        ? ` Refused on this server: it runs behind ${guards.join(', ')} and no person is configured to run it as (boardbot mcp --as).`
        : '';
    return defineTool({
      name: `command_${name}`,
      description: `${command.description} (the bot's ${shownAs} command, run ${whom} on the board; the result is its answer.)${refused}`,
      input: Type.Object(
        { board_id: Id('The board it runs on'), ...options, idempotency_key: IdempotencyKey },
        { additionalProperties: false },
      ),
      writes: true,
      hints: { readOnlyHint: false },
      call: (args) => source.run(name, commandCall(args, as)),
      ...(check && { check: (args) => check(name, commandCall(args, as)) }),
    });
  });
}
