import { boardApproval } from '@boardbot/core/agents';
import type { Message } from '@boardbot/protocol';
import { eventually, SseClient } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { agent, callText, useTestBed } from './support/agent.js';

// docs/mcp.md, "Approvals": a server whose writes wait for a person's approval on the board (core's
// boardApproval, the agents' approval words), with the SDK's client, on a real emulator. The people
// answer through the emulator's control API, once the request is on the board.

const bed = useTestBed();

/** An agent of a server with writes, each approved by an admin (or owner) of its board. */
const approvedAgent = (waitMs = 30_000) =>
  agent({
    rest: bed.rest,
    writes: true,
    approval: boardApproval(bed.rest, { approvers: { roles: ['admin'] }, waitMs, pollMs: 20 }),
  });

/** The approval requests on a board that name `text`, once there is one more than `after`. */
async function requests(boardId: string, text: string, after = 0): Promise<Message[]> {
  return eventually(async () => {
    const found = (await bed.emu.allMessages(boardId)).filter(
      (m) => m.content?.includes('An agent asks to run') && m.content.includes(text),
    );
    if (found.length <= after) throw new Error('no approval request yet');
    return found;
  });
}

/**
 * A message's content now, and how many times it was edited: the app's gateway events from the
 * first, read up to a marker posted after the call (every edit the call made comes before it).
 */
async function edits(boardId: string, id: string): Promise<{ content: string | null | undefined; edits: number }> {
  const marker = await bed.emu.control.postMessage(boardId, { user_id: bed.emu.seed.bob.id, content: 'marker' });
  const stream = await SseClient.open(`${bed.emu.apiUrl}/gateway`, bed.emu.token, { 'last-event-id': '0' });
  let count = 0;
  try {
    for (;;) {
      const { event, data } = await stream.nextEvent();
      const message = (JSON.parse(data) as { message?: Message }).message;
      if (event === 'message.edit' && message?.id === id) count++;
      if (event === 'message.create' && message?.id === marker.id) break;
    }
  } finally {
    stream.destroy();
  }
  const content = (await bed.emu.allMessages(boardId)).find((m) => m.id === id)?.content;
  return { content, edits: count };
}

const posted = async (boardId: string, content: string) =>
  (await bed.emu.allMessages(boardId)).filter((m) => m.content === content).length;

describe('writes approved by a person on the board', () => {
  it("posts once an approver answers yes to the request; a member's answer decides nothing", async () => {
    const client = await approvedAgent();
    const { general, alice, bob } = bed.emu.seed;
    const call = callText(client, 'send_message', { board_id: general.id, content: 'Release 1.5 is out' });
    const request = (await requests(general.id, 'Release 1.5 is out'))[0] as Message;
    // bob is a member, not an admin: his "no" comes first and must not deny it.
    await bed.emu.control.postMessage(general.id, { user_id: bob.id, content: 'No', replyTo: request.id });
    await bed.emu.control.postMessage(general.id, { user_id: alice.id, content: 'yes!', replyTo: request.id });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(await posted(general.id, 'Release 1.5 is out')).toBe(1);
    expect(await edits(general.id, request.id)).toEqual({
      content: expect.stringMatching(
        new RegExp(`^✅ Approved by <@${alice.id}>:\n\`send_message\` .*Release 1.5 is out`),
      ),
      edits: 1,
    });
    await client.close();
  });

  it('does nothing when an approver says no, and says who denied it', async () => {
    const client = await approvedAgent();
    const { random, alice } = bed.emu.seed;
    const call = callText(client, 'send_message', { board_id: random.id, content: 'Delete everything' });
    const request = (await requests(random.id, 'Delete everything'))[0] as Message;
    await bed.emu.control.postMessage(random.id, { user_id: alice.id, content: 'nein', replyTo: request.id });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`send_message was denied by user ${alice.id} on the board`);
    expect(await posted(random.id, 'Delete everything')).toBe(0);
    expect(await edits(random.id, request.id)).toEqual({
      content: expect.stringMatching(new RegExp(`^❌ Denied by <@${alice.id}>:\n\`send_message\` .*Delete everything`)),
      edits: 1,
    });
    await client.close();
  });

  it('posts an approved write whose request message was deleted: the decision stands with nothing left to show', async () => {
    const client = await approvedAgent();
    const { general, alice } = bed.emu.seed;
    const call = callText(client, 'send_message', { board_id: general.id, content: 'Deploy 2.0 tonight' });
    const request = (await requests(general.id, 'Deploy 2.0 tonight'))[0] as Message;
    await bed.rest.deleteMessage(general.id, request.id);
    await bed.emu.control.postMessage(general.id, { user_id: alice.id, content: 'yes', replyTo: request.id });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(await posted(general.id, 'Deploy 2.0 tonight')).toBe(1);
    await client.close();
  });

  it('says a write is pending when nobody answered in time; called again with its key, it waits on the same request', async () => {
    const { general, alice } = bed.emu.seed;
    const args = { board_id: general.id, content: 'Freeze merges', idempotency_key: 'freeze-1' };
    const impatient = await approvedAgent(0);
    const pending = await callText(impatient, 'send_message', args);
    expect(pending.isError).toBe(true);
    expect(pending.text).toMatch(/waits for a person's approval on the board .*Call it again with the same arguments/);
    expect(await posted(general.id, 'Freeze merges')).toBe(0);
    await impatient.close();

    const request = (await requests(general.id, 'Freeze merges'))[0] as Message;
    await bed.emu.control.postMessage(general.id, { user_id: alice.id, content: 'ok', replyTo: request.id });
    const patient = await approvedAgent();
    expect((await callText(patient, 'send_message', args)).isError).toBe(false);
    // Asked once more with its key: the write and the request's edit are replayed, not made again.
    expect((await callText(patient, 'send_message', args)).isError).toBe(false);
    expect(await posted(general.id, 'Freeze merges')).toBe(1);
    const asked = (await bed.emu.allMessages(general.id)).filter((m) => m.content?.includes('`send_message`'));
    expect(asked.filter((m) => m.content?.includes('Freeze merges'))).toHaveLength(1);
    expect(await edits(general.id, request.id)).toEqual({
      content: expect.stringMatching(/^✅ Approved by/),
      edits: 1,
    });
    await patient.close();
  });

  it('shows a request asked without a key that no one answered in time as over: no later call waits on it', async () => {
    const { random } = bed.emu.seed;
    const impatient = await approvedAgent(0);
    const pending = await callText(impatient, 'send_message', { board_id: random.id, content: 'Rename the board' });
    expect(pending.text).toMatch(/Call it again with an idempotency_key/);
    const request = (await bed.emu.allMessages(random.id)).find((m) => m.content?.includes('Rename the board'));
    expect(await edits(random.id, request?.id ?? '')).toEqual({
      content: expect.stringMatching(/^⌛ Denied, no answer in time:\n`send_message` .*Rename the board/),
      edits: 1,
    });
    expect(await posted(random.id, 'Rename the board')).toBe(0);
    await impatient.close();
  });

  it('shows the request of an agent that gave up waiting (its connection closed) as cancelled', async () => {
    const { random } = bed.emu.seed;
    const client = await approvedAgent();
    const call = callText(client, 'send_message', { board_id: random.id, content: 'Archive the board' });
    const request = (await requests(random.id, 'Archive the board'))[0] as Message;
    await client.close();
    await expect(call).rejects.toThrow();
    const shown = await eventually(async () => {
      const now = (await bed.emu.allMessages(random.id)).find((m) => m.id === request.id)?.content;
      if (!now?.startsWith('🚫')) throw new Error('the request is not shown as cancelled yet');
      return now;
    });
    expect(shown).toMatch(/^🚫 Cancelled:\n`send_message` .*Archive the board/);
    expect(await posted(random.id, 'Archive the board')).toBe(0);
  });
});
