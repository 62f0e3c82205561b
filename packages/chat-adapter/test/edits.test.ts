import { eventuallyValue } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import type { Chat, MessageDeletedEvent } from 'chat';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botMessagesOn, repliesTo } from './support/board.js';
import { chatOn } from './support/docs-bot.js';

// Edits and deletes both ways: a person's reach Chat's lifecycle handlers; the bot's own go through
// the SentMessage Chat hands back.

let emulator: SeededEmulator;
let bot: Chat;
const updated: string[] = [];
const deleted: MessageDeletedEvent[] = [];

beforeEach(async () => {
  emulator = await startSeededEmulator();
  bot = chatOn(emulator);
  updated.length = 0;
  deleted.length = 0;
  bot.onNewMention(async (thread, message) => {
    const sent = await thread.post('draft');
    await sent.edit(`final answer to ${message.text}`);
    if (message.text.includes('forget')) await sent.delete();
  });
  bot.onMessageUpdated(async (thread, message) => {
    updated.push(`${thread.id} ${message.text} ${message.metadata.edited}`);
  });
  bot.onMessageDeleted(async (event) => {
    deleted.push(event);
  });
  await bot.initialize();
});

afterEach(async () => {
  await bot.shutdown();
  await emulator.close();
});

describe('edits and deletes', () => {
  it('edits and deletes the bot’s own message through Chat’s SentMessage', async () => {
    const { general, alice } = emulator.seed;
    const keep = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot keep' });
    const forget = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot forget' });
    const [kept] = await eventuallyValue(
      () => repliesTo(emulator, keep),
      ([r]) => r?.content === 'final answer to @dev-bot keep',
    );
    expect(kept?.edited_at).not.toBeNull();
    const [gone] = await eventuallyValue(
      () => repliesTo(emulator, forget),
      ([r]) => r?.deleted_at !== null,
    );
    expect(gone?.content).toBeNull();
    expect((await botMessagesOn(emulator, general.id)).length).toBe(2);
  });

  it('hands a person’s edit and delete to onMessageUpdated and onMessageDeleted, in the message’s thread', async () => {
    const { general, bob } = emulator.seed;
    const root = await emulator.control.postMessage(general.id, { user_id: bob.id, content: 'topic' });
    const reply = await emulator.control.postMessage(general.id, {
      user_id: bob.id,
      content: 'typo',
      replyTo: root.id,
    });
    await emulator.control.editMessage(general.id, reply.id, 'fixed');
    await emulator.control.deleteMessage(general.id, reply.id);
    const thread = `board:${general.id}:${root.id}`;
    // The two events run at once (Chat takes no lock for lifecycle events): wait for both.
    await eventuallyValue(
      async () => updated.length + deleted.length,
      (n) => n === 2,
    );
    expect(updated).toEqual([`${thread} fixed true`]);
    expect(deleted.map((d) => [d.threadId, d.channelId, d.messageId])).toEqual([
      [thread, `board:${general.id}`, reply.id],
    ]);
  });
});
