import type { RestClient } from '@boardbot/rest';
import { McpOptionError } from './errors.js';

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
}

/** The defaults of {@link BoardMcpOptions}. */
export const DEFAULT_MCP_OPTIONS = { writes: false, maxScan: 1000 } as const satisfies Required<
  Omit<BoardMcpOptions, 'rest'>
>;

/**
 * The options with their defaults, checked.
 * @throws McpOptionError naming the option
 */
export function resolveMcpOptions(options: BoardMcpOptions): Required<BoardMcpOptions> {
  const maxScan = options.maxScan ?? DEFAULT_MCP_OPTIONS.maxScan;
  if (!Number.isInteger(maxScan) || maxScan < 1 || maxScan > 10_000) {
    throw new McpOptionError('maxScan', 'must be an integer from 1 to 10000');
  }
  return { rest: options.rest, writes: options.writes ?? DEFAULT_MCP_OPTIONS.writes, maxScan };
}
