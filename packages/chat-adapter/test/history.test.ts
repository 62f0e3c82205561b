import { eventuallyValue } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
// toAiMessages from the main entry, which Chat SDK keeps for it: `chat/ai` loads the AI SDK as well.
import { type Chat, type Message, NotImplementedError, type Thread, toAiMessages } from 'chat';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repliesTo } from './support/board.js';
import { chatOn } from './support/docs-bot.js';

// What a handler reads back: a thread's messages (the history toAiMessages turns into a model's
// input), a board's top-level messages, the thread and channel records.

let emulator: SeededEmulator;
let bot: Chat;
const seen: { thread: Thread; message: Message }[] = [];

beforeEach(async () => {
  emulator = await startSeededEmulator();
  bot = chatOn(emulator);
  seen.length = 0;
  bot.onNewMention(async (thread, message) => {
    await thread.subscribe();
    await thread.post(`noted: ${message.text}`);
  });
  bot.onSubscribedMessage(async (thread, message) => {
    seen.push({ thread, message });
    await thread.post(`noted: ${message.text}`);
  });
  await bot.initialize();
});

afterEach(async () => {
  await bot.shutdown();
  await emulator.close();
});

describe('reading a thread back', () => {
  it('gives the reply chain, oldest first, as toAiMessages reads it', async () => {
    const { general, alice, bob } = emulator.seed;
    const say = (content: string, replyTo?: string) =>
      emulator.control.postMessage(general.id, { user_id: alice.id, content, ...(replyTo ? { replyTo } : {}) });
    const first = await say('@dev-bot remember the milk');
    const [answer] = await repliesTo(emulator, first);
    // Another thread on the same board, and a message of nobody's thread, both left out.
    await emulator.control.postMessage(general.id, { user_id: bob.id, content: 'unrelated' });
    const second = await say('and the eggs', answer?.id);
    await repliesTo(emulator, second);
    const { thread } = await eventuallyValue(
      async () => seen[0] as { thread: Thread },
      (s) => s !== undefined,
    );

    const { messages } = await thread.adapter.fetchMessages(thread.id, { limit: 20 });
    expect(await toAiMessages(messages)).toEqual([
      { role: 'user', content: '@dev-bot remember the milk' },
      { role: 'assistant', content: 'noted: @dev-bot remember the milk' },
      { role: 'user', content: 'and the eggs' },
      { role: 'assistant', content: 'noted: and the eggs' },
    ]);
    expect(messages.every((m) => m.threadId === thread.id)).toBe(true);
  });

  it('pages a thread backward and forward by seq', async () => {
    const { general, alice } = emulator.seed;
    const root = await emulator.control.postMessage(general.id, { user_id: alice.id, content: '@dev-bot count' });
    const [answer] = await repliesTo(emulator, root);
    let parent = answer?.id as string;
    for (let i = 1; i <= 3; i++) {
      const m = await emulator.control.postMessage(general.id, { user_id: alice.id, content: `${i}`, replyTo: parent });
      parent = (await repliesTo(emulator, m))[0]?.id as string;
    }
    const adapter = bot.getAdapter('board');
    const threadId = `board:${general.id}:${root.id}`;
    const texts = (r: { messages: Message[] }) => r.messages.map((m) => m.text);
    const newest = await adapter.fetchMessages(threadId, { limit: 3 });
    expect(texts(newest)).toEqual(['noted: 2', '3', 'noted: 3']);
    const older = await adapter.fetchMessages(threadId, { limit: 3, cursor: newest.nextCursor as string });
    expect(texts(older)).toEqual(['1', 'noted: 1', '2']);
    const oldest = await adapter.fetchMessages(threadId, { limit: 5, cursor: older.nextCursor as string });
    expect(texts(oldest)).toEqual(['@dev-bot count', 'noted: @dev-bot count']);
    expect(oldest.nextCursor).toBeUndefined();
    const forward = await adapter.fetchMessages(threadId, { limit: 4, direction: 'forward' });
    expect(texts(forward)).toEqual(['@dev-bot count', 'noted: @dev-bot count', '1', 'noted: 1']);
  });

  it('reads a board as a channel: its top-level messages and its record', async () => {
    const { random, bob } = emulator.seed;
    const a = await emulator.control.postMessage(random.id, { user_id: bob.id, content: 'first topic' });
    await emulator.control.postMessage(random.id, { user_id: bob.id, content: 'a reply', replyTo: a.id });
    await emulator.control.postMessage(random.id, { user_id: bob.id, content: 'second topic' });
    const channel = bot.channel(`board:${random.id}`);
    const info = await channel.fetchMetadata();
    expect([info.name, info.isDM]).toEqual(['random', false]);
    const { messages } = (await bot.getAdapter('board').fetchChannelMessages?.(channel.id)) ?? { messages: [] };
    expect(messages.map((m) => [m.text, m.threadId])).toEqual([
      ['first topic', `board:${random.id}:${a.id}`],
      ['second topic', `board:${random.id}:${messages[1]?.id}`],
    ]);
  });
});

describe('people', () => {
  it('reads a person as Chat SDK’s UserInfo, and an unknown id as null', async () => {
    const adapter = bot.getAdapter('board');
    expect(await adapter.getUser?.(emulator.seed.bob.id)).toEqual({
      userId: emulator.seed.bob.id,
      userName: 'bob',
      fullName: 'Bob',
      isBot: false,
    });
    expect(await adapter.getUser?.('00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});

describe('what the platform cannot do', () => {
  it('raises Chat SDK’s NotImplementedError for reactions, typing, files, buttons and modals', async () => {
    const { general, alice } = emulator.seed;
    const m = await emulator.control.postMessage(general.id, { user_id: alice.id, content: 'hello' });
    const thread = bot.thread(`board:${general.id}:${m.id}`);
    const features = async (run: () => Promise<unknown>) =>
      run().then(
        () => 'done',
        (error: unknown) => (error instanceof NotImplementedError ? error.feature : String(error)),
      );
    expect(await features(() => bot.getAdapter('board').addReaction(thread.id, m.id, 'thumbs_up'))).toBe('reactions');
    expect(await features(() => thread.startTyping())).toBe('typing');
    expect(
      await features(() => thread.post({ markdown: 'a file', files: [{ data: Buffer.from('x'), filename: 'x.txt' }] })),
    ).toBe('files');
    const card = {
      type: 'card' as const,
      title: 'Pick',
      children: [{ type: 'actions' as const, children: [{ type: 'button' as const, id: 'ok', label: 'OK' }] }],
    };
    expect(await features(() => thread.post(card))).toBe('buttons');
    // A card without buttons is posted, as its text.
    const plain = { type: 'card' as const, title: 'Weather', children: [{ type: 'text' as const, content: 'Sunny' }] };
    const sent = await thread.post(plain);
    const posted = (await emulator.allMessages(general.id)).find((x) => x.id === sent.id);
    expect(posted?.content).toMatch(/Weather[\s\S]*Sunny/);
  });

  it('answers a webhook with 404 in the contract’s envelope: events come from the stream', async () => {
    const res = await bot.webhooks.board!(new Request('http://bot.test/webhook', { method: 'POST', body: '{}' }));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
