import type { RestClient } from '@boardbot/rest';
import { McpOptionError } from './errors.js';

/** One of a bot's commands as the server offers it (core's `openBotCommands(definition).commands`). */
export interface McpCommand {
  /** `roll`, a subcommand's `note_add`: the tool is `command_<name>`. */
  name: string;
  /** The command as typed (`/note add`). */
  shownAs: string;
  /** What the command does, as registered. */
  description: string;
  /** Its options as a JSON Schema object (type, bounds, choices, description per option). */
  inputSchema: { properties: Record<string, Record<string, unknown>>; required: readonly string[] };
  /** The names of its guards; empty: anyone may run it. */
  guards: readonly string[];
}

/** One call of a command: where, as whom, with which options and idempotency key. */
export interface McpCommandCall {
  /** The board it runs on. */
  boardId: string;
  /** The user id it runs as. @defaultValue none: the app */
  as?: string | undefined;
  /** Its option values, by option name. @defaultValue none */
  input?: Record<string, string | number | boolean>;
  /** The agent's idempotency key. @defaultValue none: a call made again writes again */
  key?: string | undefined;
}

/**
 * A bot's commands and the way to run one as a person of a board: core's `openBotCommands(definition)`
 * fits (it runs each through the bot's own stages and resolves with what the command answered).
 */
export interface McpCommandSource {
  readonly commands: readonly McpCommand[];
  /**
   * Runs a command; resolves with its answer, rejects with why it did not run (a refusal, invalid
   * options, a person who is not on the board), which the agent reads as the tool's error.
   */
  run(name: string, call: McpCommandCall): Promise<string>;
  /**
   * Rejects, without running it, a call that could not run whatever an approver says (no person for
   * a guarded command, a person off the board, an unknown board, invalid options): with an
   * `approval`, the server asks it before posting a request, so such a call is refused at once.
   * @defaultValue none: every call is asked for approval, and refused, if it is, once approved
   */
  check?(name: string, call: McpCommandCall): Promise<void>;
}

/** How an approval of a write ended (core's `boardApproval` gives it). */
export type McpApprovalOutcome =
  | { decision: 'approve' | 'deny'; by: string; requestId: string }
  | { decision: 'pending'; requestId: string };

/**
 * Asks a person on the board to approve a write before it runs: core's `boardApproval(rest, {
 * approvers })` posts a request on the write's board and reads the approvers' replies.
 */
export type McpApproval = (ask: {
  boardId: string;
  what: string;
  key?: string | undefined;
  /** Aborted when the agent cancels its call: the wait ends. */
  signal?: AbortSignal | undefined;
}) => Promise<McpApprovalOutcome>;

/** What {@link createBoardMcpServer} takes. */
export interface BoardMcpOptions {
  /** The app's REST client: what the tools read and write through (its rate limit, its keys). */
  rest: RestClient;
  /**
   * Whether the write tools (send, edit, delete the app's own messages) are offered; without, the
   * server reads only, and a call of a write tool is refused, saying how to allow writes.
   * @defaultValue false
   */
  writes?: boolean;
  /** Most messages one read scans (a thread). @defaultValue 1000 */
  maxScan?: number;
  /**
   * The bot's commands, offered as write tools `command_<name>` (core's `openBotCommands(definition)`).
   * @defaultValue none: no command tools
   */
  commands?: McpCommandSource | undefined;
  /**
   * The user id of the person the commands run as (a member of each board they run on): guards,
   * roles and cooldowns see them. @defaultValue none: commands run as the app, and a command with
   * guards is refused
   */
  as?: string | undefined;
  /**
   * Makes every write (the write tools, the commands) wait for a person's approval on its board; a
   * command call its source's `check` refuses is refused at once, no request posted.
   * @defaultValue none: writes run at once
   */
  approval?: McpApproval | undefined;
}

/** The options with their defaults. */
export type ResolvedMcpOptions = Required<Omit<BoardMcpOptions, 'commands' | 'as' | 'approval'>> &
  Pick<BoardMcpOptions, 'commands' | 'as' | 'approval'>;

/** The defaults of {@link BoardMcpOptions}. */
export const DEFAULT_MCP_OPTIONS = { writes: false, maxScan: 1000 } as const satisfies Required<
  Omit<BoardMcpOptions, 'rest' | 'commands' | 'as' | 'approval'>
>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The options with their defaults, checked.
 * @throws McpOptionError naming the option
 */
export function resolveMcpOptions(options: BoardMcpOptions): ResolvedMcpOptions {
  const maxScan = options.maxScan ?? DEFAULT_MCP_OPTIONS.maxScan;
  if (!Number.isInteger(maxScan) || maxScan < 1 || maxScan > 10_000) {
    throw new McpOptionError('maxScan', 'must be an integer from 1 to 10000');
  }
  if (options.as !== undefined && !UUID.test(options.as)) {
    throw new McpOptionError(
      'as',
      'must be the user id (a uuid) of a person of the boards, as get_user and list_members show it',
    );
  }
  const { rest, commands, as, approval } = options;
  return { rest, writes: options.writes ?? DEFAULT_MCP_OPTIONS.writes, maxScan, commands, as, approval };
}
