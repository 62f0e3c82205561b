import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@boardbot/cli';
import { buildProjects, eventually } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, spawnCli } from './support/cli-process.js';
import { buildFixtureProject, createFixtureProject, type FixtureProject } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

// docs/mcp.md: `boardbot mcp` as an agent runs it: the agent starts the command and speaks MCP over
// its stdin and stdout (the official SDK's client), or connects to `--http` with the bearer secret.

let emu: SeededEmulator;
let dir: string;
let project: FixtureProject;
beforeAll(async () => {
  await buildProjects('packages/cli');
  emu = await startSeededEmulator();
  dir = mkdtempSync(join(tmpdir(), 'boardbot-mcp-'));
  // A bot whose definition has /ping (anyone) and /kick (admins only).
  project = createFixtureProject('mcp', { definition: true });
  project.write(
    'src/bot.ts',
    `import { Command, type CommandContext, defineBot, RequireRole } from '@boardbot/core';
import { Ping } from './ping.js';
@Command({ name: 'kick', description: 'Kicks someone (admins)' })
@RequireRole('admin')
export class Kick {
  run(ctx: CommandContext) {
    return \`kicked by \${ctx.user.username}\`;
  }
}
export default defineBot({ handlers: [Ping, Kick] });
`,
  );
  await buildFixtureProject(project);
}, 180_000);
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
  project?.remove();
});

/** The environment the agent's MCP configuration gives the command: the token, never a flag. */
const env = () => ({ PATH: process.env.PATH ?? '', BOARDBOT_TOKEN: emu.token, BOARDBOT_API_URL: emu.apiUrl });

/** An agent that starts `boardbot mcp <flags>` (in `cwd`) and connects over stdio; its stderr kept. */
async function agentIn(cwd: string, ...flags: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', ...flags],
    env: env(),
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** An agent of `boardbot mcp <flags>` started outside any bot project. */
const agent = (...flags: string[]) => agentIn(dir, ...flags);

const text = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text).join('\n');

describe('boardbot mcp over stdio', () => {
  it('is read-only by default, reads the thread of a message, and never shows the token', async () => {
    const { client, stderr } = await agent();
    const { general, alice, bob } = emu.seed;
    const root = await emu.control.postMessage(general.id, { user_id: alice.id, content: 'Deploy today?' });
    const reply = await emu.control.postMessage(general.id, {
      user_id: bob.id,
      content: 'After lunch',
      replyTo: root.id,
    });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).not.toContain('send_message');
    const thread = JSON.parse(
      text(await client.callTool({ name: 'read_thread', arguments: { board_id: general.id, message_id: reply.id } })),
    );
    expect(thread.messages.map((m: { content: string }) => m.content)).toEqual(['Deploy today?', 'After lunch']);
    const refused = await client.callTool({ name: 'send_message', arguments: { board_id: general.id, content: 'x' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/--writes/);
    await client.close();
    expect(stderr()).toMatch(/read-only \(--writes to allow writes\), over stdio/);
    expect(stderr()).not.toContain(emu.token);
  });

  it('posts with --writes', async () => {
    const { client } = await agent('--writes');
    const posted = await client.callTool({
      name: 'send_message',
      arguments: { board_id: emu.seed.random.id, content: 'Hello from an agent', idempotency_key: 'hello-1' },
    });
    expect(posted.isError).toBeFalsy();
    const messages = await emu.allMessages(emu.seed.random.id);
    expect(messages.filter((m) => m.content === 'Hello from an agent')).toHaveLength(1);
    await client.close();
  });
});

describe("boardbot mcp --writes in a bot's project: its commands as tools", () => {
  it('runs a command as the app and refuses a guarded one without --as, in the tool errors', async () => {
    const { client, stderr } = await agentIn(project.dir, '--writes');
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.filter((t) => t.startsWith('command_')).sort()).toEqual(['command_kick', 'command_ping']);
    const { general } = emu.seed;
    const pong = await client.callTool({ name: 'command_ping', arguments: { board_id: general.id, text: 'hi' } });
    expect([pong.isError ?? false, text(pong)]).toEqual([false, 'pong v1 hi']);
    const kick = await client.callTool({ name: 'command_kick', arguments: { board_id: general.id } });
    expect(kick.isError).toBe(true);
    expect(text(kick)).toMatch(/^BOARDBOT_COMMAND_NEEDS_PERSON: \/kick was refused/);
    await client.close();
    expect(stderr()).toMatch(/reads and writes, 2 command tools run as the app/);
  });

  it('runs a guarded command as the person given by --as', async () => {
    const { client, stderr } = await agentIn(project.dir, '--writes', '--as', emu.seed.alice.id);
    const kick = await client.callTool({ name: 'command_kick', arguments: { board_id: emu.seed.general.id } });
    expect([kick.isError ?? false, text(kick)]).toEqual([false, 'kicked by alice']);
    await client.close();
    expect(stderr()).toContain(`2 command tools run as user ${emu.seed.alice.id}`);
  });

  it('refuses --as without --writes, as a usage error', async () => {
    const io = testIo(project.dir, env());
    expect(await runCli(['node', 'boardbot', 'mcp', '--as', emu.seed.alice.id], io)).toBe(2);
    expect(io.text()).toMatch(/BOARDBOT_CLI_CONFIG.*--as runs the bot's commands, which are write tools: add --writes/);
  });
});

describe('boardbot mcp --writes --approve-by', () => {
  it('posts once an approver of the board answers yes to the request it posted', async () => {
    const { client, stderr } = await agent('--writes', '--approve-by', 'admin');
    const { general, alice } = emu.seed;
    const call = client.callTool({ name: 'send_message', arguments: { board_id: general.id, content: 'Ship it?' } });
    const request = await eventually(async () => {
      const found = (await emu.allMessages(general.id)).find(
        (m) => m.content?.includes('Ship it?') && m.author !== null,
      );
      if (!found?.content?.includes('An agent asks to run')) throw new Error('no request yet');
      return found;
    });
    await emu.control.postMessage(general.id, { user_id: alice.id, content: 'yes', replyTo: request.id });
    expect((await call).isError).toBeFalsy();
    expect((await emu.allMessages(general.id)).filter((m) => m.content === 'Ship it?')).toHaveLength(1);
    await client.close();
    expect(stderr()).toMatch(/reads and writes, each approved on its board by admin/);
  });

  it('refuses a guarded command without --as at once, posting no request to the approvers', async () => {
    const { client } = await agentIn(project.dir, '--writes', '--approve-by', 'admin');
    const { random } = emu.seed;
    const kick = await client.callTool({ name: 'command_kick', arguments: { board_id: random.id } });
    expect(kick.isError).toBe(true);
    expect(text(kick)).toMatch(/^BOARDBOT_COMMAND_NEEDS_PERSON: \/kick was refused/);
    expect((await emu.allMessages(random.id)).filter((m) => m.content?.includes('`command_kick`'))).toEqual([]);
    await client.close();
  });

  it('refuses an approver that is neither a user id nor a role', async () => {
    const io = testIo(dir, env());
    expect(await runCli(['node', 'boardbot', 'mcp', '--writes', '--approve-by', 'admins'], io)).toBe(2);
    expect(io.text()).toMatch(
      /--approve-by takes user ids and roles \(owner, admin, member\), comma-separated; "admins" is neither/,
    );
  });
});

describe('boardbot mcp --http', () => {
  it('serves on loopback behind the secret it prints once, and stops on SIGTERM', async () => {
    const cli = spawnCli(['mcp', '--http', '0'], dir, env());
    const [, url, secret] = (await cli.waitFor(
      /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n {2}bearer secret (\S+)/,
    )) as string[];
    const refused = await fetch(url as string, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(401);
    expect(secret?.length).toBeGreaterThanOrEqual(32);
    expect(cli.output()).not.toContain(emu.token);
    expect(await cli.stop('SIGTERM')).toBe(0);
  });
});
