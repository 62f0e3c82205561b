import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProjects } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, spawnCli } from './support/cli-process.js';

// docs/mcp.md: `boardbot mcp` as an agent runs it: the agent starts the command and speaks MCP over
// its stdin and stdout (the official SDK's client), or connects to `--http` with the bearer secret.

let emu: SeededEmulator;
let dir: string;
beforeAll(async () => {
  await buildProjects('packages/cli');
  emu = await startSeededEmulator();
  dir = mkdtempSync(join(tmpdir(), 'boardbot-mcp-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The environment the agent's MCP configuration gives the command: the token, never a flag. */
const env = () => ({ PATH: process.env.PATH ?? '', BOARDBOT_TOKEN: emu.token, BOARDBOT_API_URL: emu.apiUrl });

/** An agent that starts `boardbot mcp <flags>` and connects over stdio; its stderr kept. */
async function agent(...flags: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', ...flags],
    env: env(),
    cwd: dir,
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
