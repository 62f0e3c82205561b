import { type MessageContext, OnEvent, OnMessage } from '@boardbot/core';
import type { MessageCreateEvent } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

// The bot's own answers come back to it as message.create. When no listener may see them, the
// runtime finishes them at once, outside the queue; an @OnEvent listener must still get them.

const raw: string[] = [];

class Pinger {
  @OnMessage('ping')
  ping(_ctx: MessageContext) {
    return 'pong';
  }
}

class RawWatcher {
  @OnEvent('message.create')
  seen(event: MessageCreateEvent) {
    raw.push(event.message.content ?? '');
  }
}

describe("the bot's own answers", () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await TestPlatform.start();
  });

  afterAll(async () => {
    await platform?.close();
  });

  it('reach an @OnEvent listener, though no message listener asks for them', async () => {
    const started = platform.bot({ handlers: [Pinger, RawWatcher] });
    await started.bot.start();
    try {
      await platform.post(platform.alice, platform.general, 'ping');
      await until(() => raw.includes('pong'), 'the @OnEvent listener saw the bot answer');
    } finally {
      await started.bot.stop();
    }
    expect(raw).toEqual(['ping', 'pong']);
  });
});
