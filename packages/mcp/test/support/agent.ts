import { type BotDefinition, defineBot } from '@boardbot/core';
import { type BotCommands, openBotCommands } from '@boardbot/core/agents';
import { RestClient } from '@boardbot/rest';
import { type TempDir, tempDir } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { type BoardMcpOptions, createBoardMcpServer, type McpHttpEndpoint, serveMcpOverHttp } from '../../src/index.js';

// An agent's MCP client (the official SDK's) against the server over streamable HTTP on loopback.

/** The endpoints the agents connected to: close them after the tests. */
export const endpoints: McpHttpEndpoint[] = [];

/** A seeded emulator and the app's client on it, set before the file's tests run. */
export interface TestBed {
  readonly emu: SeededEmulator;
  readonly rest: RestClient;
}

/**
 * Starts a seeded emulator and the app's REST client before the file's tests, and closes them, and
 * the agents' endpoints, after.
 */
export function useTestBed(): TestBed {
  const bed = {} as { emu: SeededEmulator; rest: RestClient };
  beforeAll(async () => {
    bed.emu = await startSeededEmulator();
    bed.rest = new RestClient({ token: bed.emu.token, baseUrl: bed.emu.apiUrl });
  });
  afterAll(async () => {
    for (const e of endpoints.splice(0)) await e.close();
    await bed.rest?.close();
    await bed.emu?.close();
  });
  return bed;
}

/**
 * The commands of a bot made of `handlers`, opened on the bed's emulator (core's `openBotCommands`,
 * its state in a temporary directory) before the file's tests and closed after: read `.commands`.
 * @param bed - the file's test bed
 * @param handlers - the bot's handlers
 */
export function useBotCommands(bed: TestBed, handlers: BotDefinition['handlers']): { commands: BotCommands } {
  const opened = {} as { commands: BotCommands };
  let state: TempDir | undefined;
  beforeAll(async () => {
    state = tempDir('boardbot-mcp-commands-');
    opened.commands = await openBotCommands(defineBot({ handlers }), {
      ...{ token: bed.emu.token, apiUrl: bed.emu.apiUrl, rest: bed.rest },
      ...{ stateDir: state.dir, logger: false },
    });
  });
  afterAll(async () => {
    await opened.commands?.close();
    state?.remove();
  });
  return opened;
}

/**
 * An MCP client of the SDK connected over HTTP to a server made with these options.
 * @param options - the server's options
 */
export async function agent(options: BoardMcpOptions): Promise<Client> {
  const endpoint = await serveMcpOverHttp({ server: () => createBoardMcpServer(options) });
  endpoints.push(endpoint);
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const headers = { authorization: `Bearer ${endpoint.secret}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers } }));
  return client;
}

/** What a tool call gave: its text, and whether it is the tool's error. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  return { text: result.content.map((c) => c.text).join('\n'), isError: result.isError === true };
}

/** The JSON a tool answered, or the error text it gave. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const { text, isError } = await callText(client, name, args);
  return isError ? { error: text } : { ok: JSON.parse(text) as Record<string, unknown> };
}
