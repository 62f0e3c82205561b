import { randomUUID } from 'node:crypto';
import type { Logger, Message, OptionValue, UserProfile } from '@boardbot/protocol';
import {
  COMMAND_RULES,
  type CommandTarget,
  type RawOptionsReader,
  type RunningCommand,
} from '../commands/command-stages.js';
import type { CommandDescription } from '../commands/describe.js';
import { routeKey } from '../commands/route-key.js';
import { InvalidHandlerError, ToolRefusedError } from '../errors.js';
import type { ContextDeps } from '../kernel/base-context.js';
import type { EventMeta } from '../kernel/event.js';
import { checkGivenValues } from '../text-commands/check-values.js';
import type { CommandToolHost } from './asking-turns.js';
import { type OptionsJsonSchema, optionsJsonSchema } from './option-schema.js';
import { type ToolCapture, ToolCommandContextImpl } from './tool-context.js';

// One place for what a command run as a tool is, whoever calls it: an assistant's model
// (`commandTools`) or an agent outside the bot (`openBotCommands`, the MCP server).

/** A tool's input: the option values, by option name. */
export type CommandToolInput = Record<string, OptionValue>;

/** One command (or subcommand) as a tool: how it is named and described, and whom it asks for. */
export interface BotCommandInfo {
  /** The tool's name: `roll`, a subcommand's `note_add`. */
  readonly name: string;
  /** The command as typed: `/roll`, `/note add`. */
  readonly shownAs: string;
  /** The command's description, as registered. */
  readonly description: string;
  /** Its options as a JSON Schema object, as registered. */
  readonly inputSchema: OptionsJsonSchema;
  /** The names of the guards it runs behind (`RequireRole(admin)`, a plugin's); empty: anyone may run it. */
  readonly guards: readonly string[];
}

/** One command as a tool, and the bot's target it runs. */
export interface CommandEntry extends BotCommandInfo {
  /** The bot's own target: its guards, cooldown and handler. */
  readonly target: CommandTarget;
}

/**
 * The tools of `@Command` classes: one per route, bound to the bot's own command targets.
 * @param host - the bot's command targets
 * @param commands - the classes' descriptions
 * @throws InvalidHandlerError for a command that is not among the bot's handlers
 */
export function commandEntries(host: CommandToolHost, commands: readonly CommandDescription[]): CommandEntry[] {
  return commands.flatMap((description) =>
    description.routes.map((route): CommandEntry => {
      const key = routeKey(route.command, route.subcommand);
      const target = host.commands.get(key);
      if (!target) throw new InvalidHandlerError(`commandTools: /${key} is not among the bot's handlers.`);
      return {
        name: route.subcommand ? `${route.command}_${route.subcommand}` : route.command,
        shownAs: `/${key}`,
        description: description.definition.description,
        inputSchema: optionsJsonSchema(route.options),
        guards: target.guards.map((g) => g.name),
        target,
      };
    }),
  );
}

/** One run of a command as a tool, as a person. */
export interface PersonRun {
  /** The message that asked (an assistant's), or a stand-in on the board (an agent outside the bot's). */
  message: Message;
  /** Whom the command runs as: guards, roles and cooldowns see this person. */
  user: UserProfile;
  /** The run's event: its writes' keys derive from its `keyBasis`. */
  event: EventMeta;
  log: Logger;
  correlationId: string;
  input: CommandToolInput;
}

/**
 * Runs the command through the bot's runner as the person, through the same stages as their own
 * invocation (guards and roles, cooldown, option checks and validation).
 * @param host - the bot's runner
 * @param entry - the command
 * @param run - as whom, on which event, with which options
 * @returns what it answered, its answers' text joined by a line break (nothing is posted)
 * @throws ToolRefusedError with what the person would have been told: a refusal, invalid options, the apology
 */
export async function runAsPerson(host: CommandToolHost, entry: CommandEntry, run: PersonRun): Promise<string> {
  const { route } = entry.target;
  const capture: ToolCapture = { answers: [], refusing: false };
  const command = { name: route.command, subcommand: route.subcommand };
  const log = run.log.child({ command: routeKey(route.command, route.subcommand), via: 'tool' });
  const read: RawOptionsReader = (running) => checkGivenValues(run.input ?? {}, route.options, running);
  await host.runner.run({
    rules: COMMAND_RULES,
    target: entry.target,
    event: run.event,
    log,
    correlationId: run.correlationId,
    context: (deps: ContextDeps) =>
      new ToolCommandContextImpl(deps, run.message, run.user, command, capture) as unknown as RunningCommand,
    input: read,
  });
  if (capture.refused) throw new ToolRefusedError(entry.shownAs, capture.refused.reason, capture.refused.told);
  return capture.answers.join('\n');
}

/**
 * The message a command run as a person stands in for, when no message asked (an agent outside the
 * bot, a slash invocation): on the board, by the person, never posted.
 * @param boardId - the board
 * @param user - the person
 * @param content - the command as typed
 * @param id - its id @defaultValue a new one
 * @param at - when it was asked (ISO 8601) @defaultValue now
 */
export function standIn(
  boardId: string,
  user: UserProfile,
  content: string,
  id: string = randomUUID(),
  at: string = new Date().toISOString(),
): Message {
  return {
    id,
    board_id: boardId,
    author: user.id,
    kind: 'default',
    content,
    media: null,
    embeds: null,
    webhook_name: null,
    reply_to: null,
    seq: 0,
    created_at: at,
    edited_at: null,
    deleted_at: null,
    interaction: null,
  };
}
