import type { RestClient } from '@boardbot/rest';
import { McpOptionError } from './errors.js';
import type { McpCommandSource } from './tools/command-tools.js';

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
}

/** The options with their defaults. */
export type ResolvedMcpOptions = Required<Omit<BoardMcpOptions, 'commands' | 'as'>> &
  Pick<BoardMcpOptions, 'commands' | 'as'>;

/** The defaults of {@link BoardMcpOptions}. */
export const DEFAULT_MCP_OPTIONS = { writes: false, maxScan: 1000 } as const satisfies Required<
  Omit<BoardMcpOptions, 'rest' | 'commands' | 'as'>
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
  const { rest, commands, as } = options;
  return { rest, writes: options.writes ?? DEFAULT_MCP_OPTIONS.writes, maxScan, commands, as };
}
