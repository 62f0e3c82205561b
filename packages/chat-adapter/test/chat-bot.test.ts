import { createBoardAdapter } from '@boardbot/chat-adapter';
import { eventuallyValue } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { createMemoryState } from '@chat-adapter/state-memory';
import { Chat, NotImplementedError } from 'chat';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botMessagesOn, repliesTo } from './support/board.js';
import { TextSource } from './support/text-source.js';

// A Chat SDK bot as Chat SDK's own documentation writes one (usage, handling events, streaming, slash
// commands: only the adapter's line is this package's), on a real emulator over loopback.

let emulator: SeededEmulator;
let bot: Chat;
let source: TextSource;

beforeEach(async () => {
  emulator = await startSeededEmulator();
  source = new TextSource();
  bot = new Chat({
    userName: 'dev-bot',
    adapters: {
      board: createBoardAdapter({
        token: emulator.token,
        baseUrl: emulator.apiUrl,
        commands: [
          { name: 'status', description: 'Is everything up?', options: [] },
          { name: 'feedback', description: 'Tell us', options: [] },
        ],
      }),
    },
    state: createMemoryState(),
    logger: 'silent',
  });
  bot.onNewMention(async (thread, message) => {
    if (message.text.includes('stream')) {
      await thread.post(source);
      return;
    }
    await thread.post(`Hello, ${message.author.fullName}!`);
  });
  bot.onSlashCommand('/status', async (event) => {
    await event.channel.post(`All systems operational, ${event.user.userName}!`);
  });
  bot.onSlashCommand('/feedback', async (event) => {
    try {
      await event.openModal({ type: 'modal', callbackId: 'feedback_form', title: 'Send Feedback', children: [] });
    } catch (error) {
      if (!(error instanceof NotImplementedError)) throw error;
      await event.channel.post(`No ${error.feature} here: tell me in the thread.`);
    }
  });
  await bot.initialize();
});

afterEach(async () => {
  await bot.shutdown();
  await emulator.close();
});

describe('a Chat SDK bot on the board adapter', () => {
  it('answers a mention in its thread, and not a message that does not mention it', async () => {
    const { general, alice } = emulator.seed;
    const plain = await emulator.control.postMessage(general.id, { user_id: alice.id, content: 'no bots here' });
    const mention = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot hi' });
    const [answer] = await repliesTo(emulator, mention);
    expect(answer?.content).toBe('Hello, Alice!');
    // The stream is in order: the plain message came first and got nothing.
    expect((await botMessagesOn(emulator, general.id)).filter((m) => m.reply_to === plain.id)).toEqual([]);
  });

  it('takes a reply to its own message as a mention', async () => {
    const { general, bob } = emulator.seed;
    const mention = await emulator.control.postMessage(general.id, { user_id: bob.id, content: '@dev-bot hi' });
    const [answer] = await repliesTo(emulator, mention);
    const reply = await emulator.control.postMessage(general.id, {
      user_id: bob.id,
      content: 'thanks!',
      replyTo: answer?.id as string,
    });
    const [second] = await repliesTo(emulator, reply);
    expect(second?.content).toBe('Hello, Bob!');
  });

  it('streams an answer through edits of one message', async () => {
    const { general, alice } = emulator.seed;
    const mention = await emulator.control.postMessage(general.id, {
      user_id: alice.id,
      content: '@dev-bot stream it',
    });
    const [answer] = await repliesTo(emulator, mention);
    expect(answer?.content).toBe('…');
    const contentOf = async () => (await repliesTo(emulator, mention))[0]?.content;
    source.push('Once upon');
    await eventuallyValue(contentOf, (c) => c === 'Once upon');
    source.push(' a time');
    source.end();
    await eventuallyValue(contentOf, (c) => c === 'Once upon a time');
    const [final] = await repliesTo(emulator, mention);
    expect(final?.id).toBe(answer?.id);
    expect(final?.edited_at).not.toBeNull();
  });

  it('continues a streamed answer past the content limit in a second message of the thread', async () => {
    const { general, alice } = emulator.seed;
    const mention = await emulator.control.postMessage(general.id, {
      user_id: alice.id,
      content: '@dev-bot stream a long one',
    });
    const text = Array.from({ length: 900 }, (_, i) => `word${i % 10}`).join(' ');
    source.push(text);
    source.end();
    const parts = await eventuallyValue(
      () => repliesTo(emulator, mention, 2),
      (replies) => replies.every((r) => r.content !== '…'),
    );
    expect(parts).toHaveLength(2);
    expect(parts[0]?.content?.length).toBeLessThanOrEqual(4000);
    expect(`${parts[0]?.content} ${parts[1]?.content}`).toBe(text);
  });

  it('registers its commands and answers a slash command through the interaction', async () => {
    const { general, alice } = emulator.seed;
    const view = await emulator.control.invokeAndWait({ board_id: general.id, user_id: alice.id, command: 'status' });
    expect(view.answers.map((a) => [a.kind, a.content])).toEqual([
      ['interaction_response', 'All systems operational, alice!'],
    ]);
  });

  it('refuses a modal with Chat SDK’s NotImplementedError, which the handler can catch', async () => {
    const { general, bob } = emulator.seed;
    const view = await emulator.control.invokeAndWait({ board_id: general.id, user_id: bob.id, command: 'feedback' });
    expect(view.answers.map((a) => a.content)).toEqual(['No modals here: tell me in the thread.']);
  });
});
