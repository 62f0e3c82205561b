import { Command, createBot, MemorySessionStore, type MessageContext, OnMessage } from '@boardbot/core';
import type { App, Message } from '@boardbot/protocol';
import { describe, expect, it } from 'vitest';
import { FakeRest } from './fake-rest.js';
import { MemorySource } from './memory-source.js';

@Command({ name: 'ping', description: 'Ping' })
class Ping {
  run() {
    return 'pong';
  }
}

class Echo {
  @OnMessage(/^echo /)
  echo(ctx: MessageContext) {
    return `heard ${ctx.message.content?.slice(5)}`;
  }
}

const app: App = { id: 'app-1', name: 'fake', bot_user_id: 'bot-1' } as App;
const message = (id: string, content: string): Message =>
  ({
    id,
    board_id: 'board-1',
    seq: 1,
    author: 'person-1',
    content,
    created_at: new Date().toISOString(),
    edited_at: null,
    deleted_at: null,
  }) as Message;

describe('the REST port', () => {
  it('takes a second implementation beside RestClient: a bot runs whole on it, with no HTTP at all', async () => {
    const rest = FakeRest.of(app);
    const source = new MemorySource();
    const bot = createBot({
      token: 'unused',
      handlers: [Ping, Echo],
      rest,
      source,
      sessions: new MemorySessionStore(),
      logger: false,
      handleSignals: false,
    });
    await bot.start();
    // The start read the app and registered the commands through the port.
    expect(bot.app.id).toBe('app-1');
    expect(rest.state.commands.map((c) => c.name)).toEqual(['ping']);
    await source.message(message('m-1', 'echo hi'));
    // The answer went out through the port, carrying its run: the event's key basis and its request id.
    expect(rest.state.writes).toEqual([
      {
        boardId: 'board-1',
        body: expect.objectContaining({ content: 'heard hi', replyTo: 'm-1' }),
        idempotencyKey: expect.stringMatching(/^bb1:m\.m-1:[^:]+:0$/),
        requestId: expect.any(String),
      },
    ]);
    await bot.stop();
    // A client the caller gave stays theirs: the bot does not close it.
    expect(rest.state.closed).toBe(false);
  });
});
