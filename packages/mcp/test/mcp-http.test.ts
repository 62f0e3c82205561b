import { type IncomingHttpHeaders, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createBoardMcpServer, serveMcpOverHttp } from '../src/index.js';
import { call, agent as connect, endpoints, useTestBed } from './support/agent.js';

// docs/mcp.md: an agent's MCP client (the official SDK's) against the server over streamable HTTP on
// loopback, on a real emulator: what it can read, what it can write, and what it is refused.

const bed = useTestBed();

/** An agent connected to a server with or without writes. */
const agent = (writes: boolean) => connect({ rest: bed.rest, writes });

describe('the MCP server, read-only (the default)', () => {
  it('lists the read tools only, and reads boards, messages and a thread as the app sees them', async () => {
    const client = await agent(false);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.sort()).toEqual([
      'get_app',
      'get_user',
      'list_boards',
      'list_members',
      'read_messages',
      'read_thread',
      'search_messages',
    ]);
    const { general, alice, bob } = bed.emu.seed;
    const root = await bed.emu.control.postMessage(general.id, { user_id: alice.id, content: 'Shall we ship 1.4?' });
    await bed.emu.control.postMessage(general.id, { user_id: bob.id, content: 'unrelated chatter' });
    const reply = await bed.emu.control.postMessage(general.id, { user_id: bob.id, content: 'Yes', replyTo: root.id });
    await bed.emu.control.postMessage(general.id, { user_id: alice.id, content: 'Then I tag it', replyTo: reply.id });

    const boards = (await call(client, 'list_boards')).ok?.boards as { name: string }[];
    expect(boards.map((b) => b.name).sort()).toEqual(['general', 'random']);
    const thread = (await call(client, 'read_thread', { board_id: general.id, message_id: reply.id })).ok;
    expect(thread?.complete).toBe(true);
    expect((thread?.messages as { author: string; content: string }[]).map((m) => `${m.author}: ${m.content}`)).toEqual(
      [`${alice.display_name}: Shall we ship 1.4?`, `${bob.display_name}: Yes`, `${alice.display_name}: Then I tag it`],
    );
    const recent = (await call(client, 'read_messages', { board_id: general.id, limit: 2 })).ok?.messages;
    expect((recent as { content: string }[]).map((m) => m.content)).toEqual(['Then I tag it', 'Yes']);
    // A search by scanning: within the last 3 messages 'ship' is not found, and the result says 3 were read.
    const near = (await call(client, 'search_messages', { board_id: general.id, text: 'SHIP', max_scan: 3 })).ok;
    expect(near).toMatchObject({ scanned: 3, messages: [] });
    const far = (await call(client, 'search_messages', { board_id: general.id, text: 'SHIP', max_scan: 4 })).ok;
    expect((far?.messages as { id: string }[]).map((m) => m.id)).toEqual([root.id]);
    await client.close();
  });

  it('refuses a write, saying how to allow writes, and posts nothing', async () => {
    const client = await agent(false);
    const before = (await bed.emu.allMessages(bed.emu.seed.random.id)).length;
    const refused = await call(client, 'send_message', { board_id: bed.emu.seed.random.id, content: 'hello' });
    expect(refused.error).toMatch(/read-only: start it with writes allowed \(boardbot mcp --writes\)/);
    expect(await bed.emu.allMessages(bed.emu.seed.random.id)).toHaveLength(before);
    await client.close();
  });

  it('answers bad arguments with the problems, for the model to try again', async () => {
    const client = await agent(false);
    const bad = await call(client, 'read_messages', { board_id: 'not-a-board', limit: 500 });
    expect(bad.error).toMatch(/Invalid arguments for read_messages:/);
    expect(bad.error).toMatch(/\/board_id/);
    expect(bad.error).toMatch(/\/limit/);
    await client.close();
  });
});

describe('the MCP server with writes', () => {
  it("posts once per idempotency key, edits and deletes the app's own messages, and is refused another's", async () => {
    const client = await agent(true);
    const { random, alice } = bed.emu.seed;
    const args = { board_id: random.id, content: 'Release 1.4 is out', idempotency_key: 'release-note-1.4' };
    const first = (await call(client, 'send_message', args)).ok;
    const again = (await call(client, 'send_message', args)).ok;
    expect(again?.id).toBe(first?.id);
    const posted = (await bed.emu.allMessages(random.id)).filter((m) => m.content === 'Release 1.4 is out');
    expect(posted).toHaveLength(1);
    const edited = (
      await call(client, 'edit_message', {
        board_id: random.id,
        message_id: first?.id,
        content: 'Release 1.4.1 is out',
      })
    ).ok;
    expect(edited?.content).toBe('Release 1.4.1 is out');
    expect((await call(client, 'delete_message', { board_id: random.id, message_id: first?.id })).ok).toEqual({
      deleted: true,
      message_id: first?.id,
    });
    const theirs = await bed.emu.control.postMessage(random.id, { user_id: alice.id, content: 'mine' });
    const refused = await call(client, 'edit_message', { board_id: random.id, message_id: theirs.id, content: 'x' });
    expect(refused.error).toMatch(/forbidden/);
    await client.close();
  });
});

/** A raw POST (fetch would not send another Host): its status, headers and error code. */
function post(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; code: unknown }>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => {
        const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, code });
      });
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('the HTTP endpoint', () => {
  it('refuses a request without the secret, from another Host or Origin, in the error envelope', async () => {
    const endpoint = await serveMcpOverHttp({ server: () => createBoardMcpServer({ rest: bed.rest }) });
    endpoints.push(endpoint);
    const auth = { authorization: `Bearer ${endpoint.secret}` };
    const none = await post(endpoint.url, {});
    expect([none.status, none.headers['www-authenticate'], none.code]).toEqual([401, 'Bearer', 'unauthorized']);
    const rebound = await post(endpoint.url, { ...auth, host: 'evil.example' });
    expect([rebound.status, rebound.code]).toEqual([403, 'forbidden']);
    const page = await post(endpoint.url, { ...auth, origin: 'http://evil.example' });
    expect([page.status, page.code]).toEqual([403, 'forbidden']);
  });

  it('listens on loopback only, with a secret of at least 32 characters', async () => {
    const server = () => createBoardMcpServer({ rest: bed.rest });
    await expect(serveMcpOverHttp({ server, host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'BOARDBOT_MCP_INVALID_OPTION',
    });
    await expect(serveMcpOverHttp({ server, secret: 'short' })).rejects.toMatchObject({
      code: 'BOARDBOT_MCP_INVALID_OPTION',
    });
  });
});
