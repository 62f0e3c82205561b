import type { SharedRateLimit } from '@boardbot/rest';
import type { Command } from 'commander';
import { loadConfig } from '../config/load-config.js';
import { ConfigError, MissingTokenError } from '../errors.js';
import type { CliIo } from '../io.js';
import { loadOptional } from '../project/optional-package.js';
import type { ProjectFlags } from '../project/project.js';
import { approvalOf } from './mcp-approvals.js';
import { openProjectCommands } from './mcp-commands.js';
import { addConfigOptions, addProjectOptions, type CommonFlags, parsePort } from './shared-options.js';

/** Flags of `boardbot mcp`. */
export interface McpFlags extends CommonFlags, Pick<ProjectFlags, 'bot'> {
  /** `--writes`: offer the write tools (send, edit, delete the app's messages). @defaultValue false */
  writes?: boolean | undefined;
  /** `--http <port>`: serve streamable HTTP on loopback instead of stdio. */
  http?: number | undefined;
  /** `--redis <url>`: share the rate-limit window of the bot's replicas on this Redis. */
  redis?: string | undefined;
  /**
   * `--as <user id>`: the person the bot's commands run as (with `--writes`). @defaultValue none: they
   * run as the app, and a command with guards is refused
   */
  as?: string | undefined;
  /**
   * `--approve-by <who>`: user ids and roles (comma-separated) one of whom approves each write on its
   * board (with `--writes`). @defaultValue none: writes run at once
   */
  approveBy?: string | undefined;
}

/**
 * `boardbot mcp`: an MCP server that gives an agent the app's view of the platform (the
 * `@boardbot/mcp` package, loaded by this command alone), over stdio (the agent starts the command)
 * or, with `--http <port>`, over streamable HTTP on loopback behind a bearer secret
 * (`BOARDBOT_MCP_SECRET`, else one made and printed once on stderr). Read-only unless `--writes`.
 * The app token is read as `start` reads it and never printed. With `--redis`, its calls share the
 * rate-limit window of the bot's replicas (docs/scaling.md). With `--writes`, the project's bot's
 * commands are tools too (`command_<name>`, from the built bot module's definition, run without its
 * events), as the person `--as` (else the app). Runs until stdin closes (stdio) or a signal.
 *
 * @param flags - see {@link McpFlags}
 * @param io - output and environment; in stdio mode nothing is written to stdout but the protocol
 */
export async function runMcp(flags: McpFlags, io: CliIo): Promise<void> {
  const cwd = flags.cwd ?? io.cwd ?? process.cwd();
  const config = loadConfig(flags, io.env, cwd);
  if (!config.token) throw new MissingTokenError('boardbot mcp');
  const writes = flags.writes === true;
  if (flags.as !== undefined && !writes) {
    throw new ConfigError("--as runs the bot's commands, which are write tools: add --writes.");
  }
  if (flags.approveBy !== undefined && !writes) {
    throw new ConfigError('--approve-by approves writes: add --writes.');
  }
  const mcp = await loadOptional<typeof import('@boardbot/mcp')>('@boardbot/mcp', 'boardbot mcp');
  const { RestClient } = await import('@boardbot/rest');
  let window: (SharedRateLimit & { close(): Promise<void> }) | undefined;
  if (flags.redis !== undefined) {
    const { redisRateLimit } = await loadOptional<typeof import('@boardbot/redis')>('@boardbot/redis', '--redis');
    window = redisRateLimit({ url: flags.redis, token: config.token, apiUrl: config.apiUrl });
  }
  const rest = new RestClient({
    token: config.token,
    baseUrl: config.apiUrl,
    ...(window && { sharedRateLimit: window }),
  });
  const commands = writes ? await openProjectCommands(flags, config, cwd, rest, io.env) : undefined;
  const { as, approveBy } = flags;
  const approval = approveBy === undefined ? undefined : await approvalOf(approveBy, cwd, rest);
  const server = () => mcp.createBoardMcpServer({ rest, writes, commands, approval, ...(as !== undefined && { as }) });
  const approved = approveBy === undefined ? '' : `, each approved on its board by ${approveBy}`;
  const mode = writes ? `reads and writes${approved}, ${ranAs(commands, as)}` : 'read-only (--writes to allow writes)';
  let close: () => Promise<void>;
  if (flags.http === undefined) {
    const connection = await mcp.serveMcpOverStdio(server());
    io.err(`boardbot mcp: ${mode}, over stdio, as the app of ${config.apiUrl}`);
    close = () => connection.close();
    await Promise.race([connection.closed, stopSignal(io)]);
  } else {
    const secret = io.env.BOARDBOT_MCP_SECRET;
    const endpoint = await mcp.serveMcpOverHttp({ server, port: flags.http, ...(secret && { secret }) });
    io.err(`boardbot mcp: ${mode}, at ${endpoint.url}`);
    if (!secret) io.err(`  bearer secret ${endpoint.secret} (set BOARDBOT_MCP_SECRET to choose it)`);
    close = () => endpoint.close();
    await stopSignal(io);
  }
  await close();
  await commands?.close();
  await rest.close();
  await window?.close();
  io.exit(0);
}

/** What the start line says of the commands: how many, run as whom. */
function ranAs(commands: { commands: readonly unknown[] } | undefined, as: string | undefined): string {
  if (!commands) return 'no command tools (the project has no bot definition)';
  return `${commands.commands.length} command tools run as ${as === undefined ? 'the app (--as <user id> for guarded ones)' : `user ${as}`}`;
}

/** Resolves at the first SIGINT or SIGTERM. */
function stopSignal(io: CliIo): Promise<void> {
  return new Promise((resolve) => {
    const off = io.onSignal(() => {
      off();
      resolve();
    });
  });
}

/**
 * Adds `boardbot mcp` to the program.
 *
 * @param program - the `boardbot` program
 * @param io - output and environment
 */
export function registerMcpCommand(program: Command, io: CliIo): void {
  const mcp = program
    .command('mcp')
    .description("Serve the app's view of the platform to an agent over MCP (stdio, or --http on loopback)");
  addProjectOptions(addConfigOptions(mcp), ['bot'])
    .option(
      '--writes',
      "offer the write tools: send, edit and delete the app's own messages, and run the bot's commands",
    )
    .option(
      '--approve-by <who>',
      'with --writes: user ids or roles (owner, admin, member), comma-separated, one of whom approves each write on its board',
    )
    .option('--as <userId>', "with --writes: the person of the board the bot's commands run as (guarded ones need one)")
    .option('--http <port>', 'serve streamable HTTP on 127.0.0.1:<port> (0: a free port) instead of stdio', parsePort)
    .option('--redis <url>', "share the rate-limit window of the bot's replicas on this Redis")
    .addHelpText('after', '\nExample (an agent\'s MCP config): { "command": "npx", "args": ["boardbot", "mcp"] }')
    .action((flags: McpFlags) => runMcp(flags, io));
}
