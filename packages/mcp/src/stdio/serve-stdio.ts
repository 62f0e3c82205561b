import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** A server connected to this process's stdin and stdout. */
export interface McpStdioConnection {
  /** Resolves when the client closed the connection (stdin ended). */
  closed: Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * Serves `server` over this process's stdin and stdout, as an agent that starts the command expects:
 * from then on stdout carries the protocol alone (log to stderr).
 * @param server - the MCP server
 */
export async function serveMcpOverStdio(server: Server): Promise<McpStdioConnection> {
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  return { closed, close: () => server.close() };
}
