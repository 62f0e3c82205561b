import { createHash, randomUUID } from 'node:crypto';
import type { Member } from '@boardbot/protocol';
import { pino } from 'pino';
import { commandToolsKind } from '../agents/agents-plugin.js';
import type { CommandToolHost } from '../agents/asking-turns.js';
import { boardMembers } from '../agents/board-members.js';
import {
  type BotCommandInfo,
  type CommandEntry,
  type CommandToolInput,
  commandEntries,
  runAsPerson,
  standIn,
} from '../agents/command-runs.js';
import { commandOptions, invalidOptionsText } from '../commands/command-stages.js';
import { CommandNeedsPersonError, InvalidHandlerError, NotBoardMemberError, ToolRefusedError } from '../errors.js';
import type { EventMeta } from '../kernel/event.js';
import { createLogger, isLogger, type LoggerInput } from '../kernel/logger.js';
import { runText } from '../kernel/translate.js';
import type { Plugin } from '../plugins/plugin.js';
import { checkGivenValues } from '../text-commands/check-values.js';
import { createBot } from './create-bot.js';
import type { BotDefinition } from './define-bot.js';
import type { BotOptions } from './options.js';
import type { BotEventSource } from './source/event-source.js';

/** One call of a command by an agent outside the bot. */
export interface BotCommandCall {
  /** The board it runs on: the person (or the app) must be a member. */
  boardId: string;
  /**
   * The user id of the person it runs as: its guards, roles and cooldown see them.
   * @defaultValue none: it runs as the app itself, and a command with guards is refused
   */
  as?: string | undefined;
  /** Its option values, by option name, checked as a text invocation's are. @defaultValue none */
  input?: CommandToolInput | undefined;
  /**
   * What the run's write keys derive from (with the board, the person and the command): called again
   * with the same key, the command's writes are replayed by the platform (24 h), never made twice.
   * @defaultValue a new one each call: a call made again writes again
   */
  key?: string | undefined;
}

/** A bot's commands, runnable by an agent outside the bot (see {@link openBotCommands}). */
export interface BotCommands {
  /** The bot's registered commands, one per command or subcommand (`note_add`). */
  readonly commands: readonly BotCommandInfo[];
  /**
   * Runs one command as a person of a board, as their own text invocation would (guards, cooldown,
   * option checks and validation), and resolves with what it answered (nothing of it is posted).
   * @param name - its name in {@link BotCommands.commands}
   * @param call - where, as whom, with which options and key
   * @throws CommandNeedsPersonError, NotBoardMemberError, or ToolRefusedError (what the person would have been told)
   */
  run(name: string, call: BotCommandCall): Promise<string>;
  /**
   * Refuses, without running it, a call that no approver's answer could let run: a command with
   * guards and no person, a person (or the app) who is not on the board or a board the app cannot
   * see, invalid options (in the bot's default locale). What the MCP server asks before it posts an
   * approval request; `run` checks the same again (the board may have changed meanwhile).
   * @param name - its name in {@link BotCommands.commands}
   * @param call - where, as whom, with which options
   * @throws CommandNeedsPersonError, NotBoardMemberError, or ToolRefusedError (its invalid options)
   */
  check(name: string, call: BotCommandCall): Promise<void>;
  /** Stops the bot behind the commands (its REST client stays open when it was given). */
  close(): Promise<void>;
}

/** An event source that delivers nothing: the bot runs commands on request and never consumes its events. */
const NO_EVENTS: BotEventSource = {
  description: 'none: commands run on request',
  start: async () => {},
  pause: async () => {},
  live: () => true,
};

/** A logger on the standard error: the standard output may carry a protocol (MCP over stdio). */
function onStderr(input: LoggerInput | undefined): LoggerInput {
  return input === false || isLogger(input) ? input : createLogger(input, false, pino.destination(2));
}

/**
 * A bot's commands for an agent outside the bot (the MCP server's `command_*` tools): the bot is
 * created from its definition and started without its events (a source that delivers nothing,
 * `commandSync: 'off'`, no replica adapter, no schedules, no health endpoint, no signal handlers), so
 * it never reconciles the commands nor takes the running bot's events, and each call runs one
 * command through the bot's own stages, as a person of the board. The same runs as an assistant's
 * command tools (`commandTools`), with a stand-in for the message that asked: `ctx.message` is not on
 * the board (its id is new, its text the command). Writes go through the given REST client (share the
 * running bot's rate limit by giving one with its `sharedRateLimit`).
 *
 * @param definition - the bot's definition (`defineBot`)
 * @param options - options of `createBot`: the token or `rest`, the API URL... @defaultValue logs on stderr
 * @example
 * const commands = await openBotCommands(definition, { token });
 * await commands.run('roll', { boardId, as: userId, input: { sides: 20 }, key: 'roll-1' });
 */
export async function openBotCommands(
  definition: BotDefinition,
  options: Partial<BotOptions> = {},
): Promise<BotCommands> {
  const bound: { host?: CommandToolHost } = {};
  const plugin: Plugin = { name: '@boardbot/core/agents: bot commands', kinds: [commandToolsKind(bound)] };
  const bot = createBot(definition, {
    ...options,
    logger: onStderr(options.logger ?? definition.options.logger),
    plugins: [...(options.plugins ?? definition.options.plugins ?? []), plugin],
    source: NO_EVENTS,
    scale: false,
    commandSync: 'off',
    handleSignals: false,
  });
  for (const part of ['schedules', 'health']) if (bot.parts.get(part)) await bot.parts.remove(part);
  await bot.start();
  const host = bound.host as CommandToolHost;
  // The generated `help` is routed but not registered: what is not registered is not offered.
  const registered = new Set(bot.commands.map((c) => c.name));
  const entries = new Map(
    commandEntries(
      host,
      host.described.filter((d) => registered.has(d.definition.name)),
    ).map((e) => [e.name, e]),
  );
  const entry = (name: string): CommandEntry => {
    const found = entries.get(name);
    if (!found) throw new InvalidHandlerError(`/${name} is not among the bot's registered commands.`);
    return found;
  };
  return {
    commands: [...entries.values()].map(({ target: _target, ...info }) => info),
    run: async (name, call) => runCommand(host, entry(name), call),
    check: async (name, call) => {
      const found = entry(name);
      await memberOf(host, found, call);
      const { options } = found.target.route;
      const where = { boardId: call.boardId, rest: host.env.rest, requestOptions: {} };
      const parsed = await commandOptions(found.target.route, await checkGivenValues(call.input ?? {}, options, where));
      if (parsed.ok) return;
      const t = (key: string, values: Record<string, string>) => runText(undefined, host.env.services, key, values);
      throw new ToolRefusedError(found.shownAs, 'refused', invalidOptionsText(t, found.shownAs, parsed.problems));
    },
    close: async () => {
      await bot.stop();
    },
  };
}

/**
 * Who the call runs as, a member of its board: the person, else the app when the command has no guards.
 * @throws CommandNeedsPersonError, NotBoardMemberError
 */
async function memberOf(host: CommandToolHost, entry: CommandEntry, call: BotCommandCall): Promise<Member> {
  const { boardId, as } = call;
  if (as === undefined && entry.guards.length > 0) throw new CommandNeedsPersonError(entry.shownAs, entry.guards);
  const userId = as ?? host.env.app().bot_user_id;
  const member = (await boardMembers(host.env.rest, boardId))?.find((m) => m.user.id === userId);
  if (!member) throw new NotBoardMemberError(entry.shownAs, as === undefined ? 'the app' : `user ${as}`, boardId);
  return member;
}

/** Checks who runs it and where, then runs it as that person under keys of the call. */
async function runCommand(host: CommandToolHost, entry: CommandEntry, call: BotCommandCall): Promise<string> {
  const { boardId, key } = call;
  const member = await memberOf(host, entry, call);
  const userId = member.user.id;
  // Hashed: a key of any length (and the person's, the board's ids) stays inside the platform's 255.
  const basis =
    key === undefined
      ? randomUUID()
      : createHash('sha256').update(`${boardId}\n${userId}\n${key}`).digest('base64url').slice(0, 22);
  const event: EventMeta = { id: `tool:${entry.name}`, origin: 'live', keyBasis: `tool.${basis}`, replayed: false };
  const log = host.env.log.child({ board_id: boardId, user_id: userId });
  const message = standIn(boardId, member.user, entry.shownAs);
  const run = { message, user: member.user, event, log, correlationId: randomUUID(), input: call.input ?? {} };
  return runAsPerson(host, entry, run);
}
