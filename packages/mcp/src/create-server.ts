import { isBoardbotError } from '@boardbot/protocol/runtime';
import { VERSION } from '@boardbot/rest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type BoardMcpOptions, resolveMcpOptions } from './options.js';
import { approvalRefusal } from './tools/approval-gate.js';
import { commandTools } from './tools/command-tools.js';
import { READ_TOOLS } from './tools/read-tools.js';
import { checkedTools } from './tools/tool.js';
import { WRITE_TOOLS } from './tools/write-tools.js';

/** What the agent reads when a call went wrong: the error as text, marked as the tool's error. */
function failed(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * A refusal or failure in words a model can act on: a platform or client error by its stable code
 * (and the platform's own), with its message, which never holds a credential; anything else by its
 * class only.
 */
function describeError(error: unknown): string {
  if (isBoardbotError(error)) {
    const apiCode = (error as { apiCode?: unknown }).apiCode;
    return `${error.code}${typeof apiCode === 'string' ? ` (${apiCode})` : ''}: ${error.message}`;
  }
  return `the call failed: ${error instanceof Error ? error.name : 'unknown error'}`;
}

/**
 * An MCP server (the official SDK's low-level `Server`, tools given as JSON Schema) that gives an agent
 * the app's view of the platform: boards, members, messages and threads to read, and, with `writes`,
 * the app's own messages to send, edit and delete. Every call goes through the app's REST client:
 * inside its rate limit, each write with an idempotency key. Connect it to a transport (stdio, or
 * `serveMcpOverHttp`). With `commands` (core's `openBotCommands`), the bot's commands are write tools
 * too (`command_<name>`), run as the person `as` (else the app; a command with guards is then
 * refused); a command's refusal or invalid options are the tool's error, for the model to retry.
 *
 * @param options - the REST client, whether writes are allowed, the read bounds, the commands and whom they run as
 * @example
 * const server = createBoardMcpServer({ rest: new RestClient({ token }), writes: true });
 * await server.connect(new StdioServerTransport());
 */
export function createBoardMcpServer(options: BoardMcpOptions): Server {
  const o = resolveMcpOptions(options);
  const writing = [...WRITE_TOOLS, ...(o.commands ? commandTools(o.commands, o.as) : [])];
  const offered = checkedTools(o.writes ? [...READ_TOOLS, ...writing] : READ_TOOLS);
  const writeNames = new Set(writing.map((t) => t.name));
  const server = new Server({ name: 'boardbot', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...offered.values()].map(({ tool }) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.input as { type: 'object' },
      annotations: tool.hints,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const found = offered.get(name);
    if (!found) {
      return failed(
        writeNames.has(name)
          ? `${name} writes on the platform, and this server is read-only: start it with writes allowed (boardbot mcp --writes).`
          : `There is no tool ${JSON.stringify(name.slice(0, 64))}: list the tools to see what this server offers.`,
      );
    }
    const checked = found.checker.check(args);
    if (!checked.ok) {
      return failed(
        `Invalid arguments for ${name}:\n${checked.issues.map((i) => `- ${i.path}: ${i.message}`).join('\n')}`,
      );
    }
    const deps = { rest: o.rest, maxScan: o.maxScan };
    try {
      if (o.approval && found.tool.writes) {
        // What no approver could let run is refused now, before anyone is asked.
        await found.tool.check?.(checked.value, deps);
        const refused = await approvalRefusal(o.approval, name, checked.value, extra.signal);
        if (refused !== undefined) return failed(refused);
      }
      const result = await found.tool.call(checked.value, deps);
      // A command's answer is text, given as it is; the platform's records as JSON.
      const text = typeof result === 'string' ? result : JSON.stringify(result, null, 2);
      return { content: [{ type: 'text', text }] };
    } catch (error) {
      return failed(describeError(error));
    }
  });
  return server;
}
