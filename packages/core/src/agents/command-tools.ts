import type { Tool } from 'ai';
import { describeCommand } from '../commands/describe.js';
import { BotStateError, InvalidHandlerError } from '../errors.js';
import type { EventMeta } from '../kernel/event.js';
import type { Class } from '../kernel/metadata.js';
import type { MessageContext } from '../listeners/context.js';
import { askingTurn } from './asking-turns.js';
import { type CommandToolInput, commandEntries, runAsPerson } from './command-runs.js';

export type { CommandToolInput } from './command-runs.js';

/**
 * The tool of one command (or subcommand), run as the asking person: its result is what the command
 * would have answered (its answers' text, joined by a line break); a refusal, invalid options or a
 * failure throw `ToolRefusedError`, which the AI SDK hands the model as the tool's error.
 */
export type CommandTool = Tool<CommandToolInput, string>;

/** Options of {@link commandTools}. */
export interface CommandToolsOptions {
  /**
   * Which tools wait for a person's approval before they run (the AI SDK's `needsApproval`; a turn of
   * `defineAgent` suspends until an approver answers): all (true), none (false), or these tool names.
   * @defaultValue false
   */
  needsApproval?: boolean | readonly string[];
}

/**
 * The bot's commands as AI SDK tools (`ai` 6 and 7) for one turn of an assistant: one per command of
 * `commands` (`roll`; a subcommand's `note_add`), described by the command's description and its
 * options' schema as registered. Each call runs the command **as the person who asked** (the author
 * of `ctx.message`), through the same stages as their own invocation: guards and roles, cooldown,
 * option checks and validation. So a person who may not run a command cannot have the assistant run
 * it. What it answers is returned to the model, not posted; post it yourself if you want it shown.
 * Its writes (a handler's own `ctx.rest` calls) take keys of this turn's event and the call's place in
 * the turn (1st, 2nd... call of these tools), never the model's tool-call id.
 *
 * Needs the `agents()` plugin and `ai` (an optional peer dependency, loaded here).
 *
 * @param ctx - the asking person's message context (the assistant's `@OnMessage` handler's)
 * @param commands - `@Command` classes among the bot's handlers
 * @param options - which tools need approval
 * @returns the tools, by name, for `streamText({ tools })` or `generateText({ tools })`
 * @throws BotStateError without `agents()`; InvalidHandlerError for a class that is not one of the bot's commands
 */
export async function commandTools(
  ctx: MessageContext,
  commands: readonly Class[],
  options: CommandToolsOptions = {},
): Promise<Record<string, CommandTool>> {
  const { needsApproval = false } = options;
  const turn = askingTurn(ctx);
  if (turn === undefined) {
    throw new BotStateError(
      'commandTools(ctx) needs the agents() plugin (createBot({ plugins: [agents()] })) and the context of a running handler.',
    );
  }
  const { run, host } = turn;
  const user = ctx.author;
  if (user === null) throw new BotStateError('commandTools(ctx) needs a message from a person (not a webhook).');
  const { jsonSchema, tool } = await import('ai');
  // The turn's calls in the order they run: their writes' keys derive from the turn's event and this.
  let calls = 0;
  const tools: Record<string, CommandTool> = {};
  const described = commands.map((cls) => {
    const description = describeCommand(cls);
    if (!description) throw new InvalidHandlerError(`commandTools: ${cls.name} has no @Command.`);
    return description;
  });
  for (const entry of commandEntries(host, described)) {
    tools[entry.name] = tool<CommandToolInput, string>({
      description: entry.description,
      needsApproval: typeof needsApproval === 'boolean' ? needsApproval : needsApproval.includes(entry.name),
      inputSchema: jsonSchema<CommandToolInput>(entry.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: (input) => {
        const event: EventMeta = {
          id: run.eventId,
          origin: run.origin,
          keyBasis: `${run.keyBasis}/tool.${calls++}`,
          replayed: run.replayed,
        };
        const { log, correlationId, message } = ctx;
        return runAsPerson(host, entry, { message, user, event, log, correlationId, input });
      },
    });
  }
  return tools;
}
