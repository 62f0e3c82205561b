import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bot from '../src/bot.js';

// A real emulator in this process (in memory, on a free port) and the bot of src/bot.ts talking to it;
// a test that fakes a provider gives only that one: createTestPlatform({ bot, providers: [...] }).
let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform({ bot });
});
afterAll(() => platform?.close());

describe('/greet', () => {
  it('greets someone by name', async () => {
    const answer = await platform.person('alice').invoke('greet', { name: 'Bob' });
    expect(answer.content).toBe('Hello, Bob!');
  });

  it('shouts when asked to', async () => {
    const answer = await platform.person('alice').invoke('greet', { name: 'Bob', shout: true });
    expect(answer.content).toBe('HELLO, BOB!');
  });

  it('refuses a name that is too long before the bot sees it', async () => {
    const error = await platform
      .person('alice')
      .invoke('greet', { name: 'x'.repeat(33) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ apiCode: 'validation_failed' });
  });
});

describe('ping', () => {
  it('answers pong as a reply', async () => {
    const message = await platform.person('bob').say('ping');
    const reply = await platform.bot.nextMessage({ replyTo: message });
    expect(reply.content).toBe('pong');
  });
});
