import { createBot } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Listener, Roll } from './support/bot.js';

const open: TestPlatform[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

async function platformWith(options: Parameters<typeof createTestPlatform>[0]): Promise<TestPlatform> {
  const platform = await createTestPlatform(options);
  open.push(platform);
  return platform;
}

describe('createTestPlatform', () => {
  it('needs a bot', async () => {
    await expect(createTestPlatform({} as never)).rejects.toMatchObject({
      code: 'BOARDBOT_TEST_OPTIONS',
      message: expect.stringContaining('give { handlers: [...] }'),
    });
  });

  it('refuses a timeout that is not a positive number', async () => {
    await expect(createTestPlatform({ handlers: [Roll], timeoutMs: 0 })).rejects.toMatchObject({
      code: 'BOARDBOT_TEST_OPTIONS',
    });
  });

  it('runs its own emulator on a loopback port, with the seeded people and boards', async () => {
    const platform = await platformWith({ handlers: [Roll] });
    expect(platform.urls.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(platform.urls.url).not.toMatch(/:8787$/);
    expect(platform.adminKey.length).toBeGreaterThan(10);
    expect((await platform.board('general')).name).toBe('general');
    expect((await platform.person('bob').profile()).display_name).toBe('Bob');
    expect(platform.bot.runtime.state).toBe('running');
    expect(platform.bot.app.name).toBe('dev-bot');
  });

  it('builds the bot with a factory that receives the harness’s options', async () => {
    const platform = await platformWith({ bot: (base) => createBot({ ...base, handlers: [Roll] }) });
    expect((await platform.person('alice').invoke('roll', { sides: 3 })).content).toBe('You rolled 3');
  });

  it('starts the bot later with start: false', async () => {
    const platform = await platformWith({ handlers: [Roll], start: false });
    expect(platform.bot.runtime.state).toBe('idle');
    await platform.start();
    expect((await platform.person('alice').invoke('roll')).content).toBe('You rolled 6');
  });

  it('acts on the board its `board` option names when a call names none', async () => {
    const platform = await platformWith({ handlers: [Roll, Listener], board: 'random' });
    const said = await platform.person('alice').say('hello there');
    expect(said.board_id).toBe((await platform.board('random')).id);
    expect((await platform.bot.nextMessage()).content).toBe('Hello, Alice!');
    expect((await platform.messages()).map((m) => m.content)).toEqual(['hello there', 'Hello, Alice!']);
    expect((await platform.messages('general')).map((m) => m.content)).toEqual([]);
  });

  it('keeps debug lines by default, and only from `logLevel` up when given', async () => {
    const chatty = await platformWith({ handlers: [Roll] });
    await chatty.person('alice').invoke('roll');
    expect(chatty.logs.find({ level: 'debug' }).length).toBeGreaterThan(0);
    const terse = await platformWith({ handlers: [Roll], logLevel: 'info' });
    await terse.person('alice').invoke('roll');
    expect(terse.logs.lines.length).toBeGreaterThan(0);
    expect(terse.logs.lines.filter((l) => l.level === 'debug' || l.level === 'trace')).toEqual([]);
  });

  it('gives its `emulator` options to the emulator: devToken, now, limits, keepAliveMs', async () => {
    const at = Date.parse('2026-03-02T09:00:00Z');
    const platform = await platformWith({
      handlers: [Roll],
      emulator: { devToken: 'harness-token', now: () => at, limits: { bodyBytes: 256 }, keepAliveMs: 1234 },
    });
    expect(platform.token).toBe('harness-token');
    expect((await platform.person('alice').invoke('roll')).created_at).toBe('2026-03-02T09:00:00.000Z');
    // The bot's own token, on the app API, with a body over the 256 bytes allowed.
    const general = await platform.board('general');
    const tooLarge = await fetch(`${platform.urls.apiUrl}/boards/${general.id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'x'.repeat(300) }),
    });
    expect(tooLarge.status).toBe(413);
    // An option the emulator refuses is refused by the harness, by its name.
    await expect(createTestPlatform({ handlers: [Roll], emulator: { keepAliveMs: 0 } })).rejects.toThrow(/keepAliveMs/);
  });

  it('reports a bot that cannot start, with its log and without the token', async () => {
    const error = await createTestPlatform({
      bot: (base) => createBot({ ...base, token: 'not-the-token', handlers: [Roll] }),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BOARDBOT_TEST_BOT_START' });
    expect((error as Error).message).toMatch(/failed to start[\s\S]*ERROR start failed/);
    expect((error as Error).message).not.toContain('not-the-token');
  });
});

describe('boards', () => {
  it('creates a board with the bot installed, where people are heard', async () => {
    const platform = await platformWith({ handlers: [Listener] });
    const board = await platform.createBoard('lobby', { description: 'Say hello' });
    const said = await platform.person('dana').say('hello lobby', { board: 'lobby' });
    expect(said.board_id).toBe(board.id);
    expect((await platform.bot.nextMessage({ replyTo: said, board: 'lobby' })).content).toBe('Hello, Dana!');
    await platform.settle();
    expect((await platform.messages('lobby')).map((m) => m.content)).toEqual(['hello lobby', 'Hello, Dana!']);
  });
});

describe('closing', () => {
  it('ends pending waits, refuses later calls, and can be called twice', async () => {
    const platform = await createTestPlatform({ handlers: [Roll] });
    const waiting = platform.bot.nextMessage({ content: 'never' }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await platform.close();
    expect(await waiting).toMatchObject({ code: 'BOARDBOT_TEST_CLOSED' });
    await platform.close();
    expect(platform.bot.runtime.state).toBe('stopped');
    await expect(platform.person('alice').say('anyone?')).rejects.toMatchObject({ code: 'BOARDBOT_TEST_CLOSED' });
  });

  it('fails waits when the emulator goes away underneath', async () => {
    const platform = await platformWith({ handlers: [Roll] });
    const waiting = platform.bot.nextMessage({}, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await platform.emulator.close();
    expect(await waiting).toMatchObject({ code: 'BOARDBOT_TEST_FEED_LOST' });
  });
});
