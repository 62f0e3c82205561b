import { type AnyContext, Command, type CommandContext, type MessageContext, OnError, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import { until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

const APOLOGY = 'Sorry, something went wrong while handling that. It has been logged.';

/** Holds a handler until the test has seen the timeout's apology, then lets it write. */
class Gate {
  started = false;
  finished = false;
  outcomes: string[] = [];
  target: Message | undefined;
  private release: () => void = () => {};
  readonly opened = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  open() {
    this.release();
  }
  /** Tries each write and records what came of it: `sent`, or the error code. */
  async attempt(writes: Record<string, () => Promise<unknown>>): Promise<void> {
    for (const [name, write] of Object.entries(writes)) {
      this.outcomes.push(
        `${name}: ${await write().then(
          () => 'sent',
          (e: { code?: string }) => e.code,
        )}`,
      );
    }
    this.finished = true;
  }
}

const commandGate = new Gate();
const listenerGate = new Gate();
const hookedGate = new Gate();

@Command({ name: 'slow', description: 'Answers after its timeout' })
class Slow {
  async run(ctx: CommandContext) {
    commandGate.started = true;
    await commandGate.opened;
    await commandGate.attempt({
      reply: () => ctx.reply('late reply'),
      followUp: () => ctx.followUp('late follow-up'),
      send: () => ctx.send('late send'),
    });
    return 'late return value';
  }
}

@Command({ name: 'slowhooked', description: 'Answers after its timeout, with its own error hook' })
class SlowHooked {
  async run(ctx: CommandContext) {
    hookedGate.started = true;
    await hookedGate.opened;
    await hookedGate.attempt({ reply: () => ctx.reply('late hooked reply') });
  }

  @OnError()
  async failed(error: unknown, ctx: AnyContext) {
    if (ctx.kind === 'command') await ctx.reply(`That took too long (${(error as { code?: string }).code}).`);
  }
}

class SlowListener {
  @OnMessage('slow listener')
  async onSlow(ctx: MessageContext) {
    listenerGate.started = true;
    await listenerGate.opened;
    const target = listenerGate.target as Message;
    await listenerGate.attempt({
      reply: () => ctx.reply('late listener reply'),
      send: () => ctx.send('late listener send'),
      edit: () => ctx.edit(target, 'edited too late'),
      delete: () => ctx.delete(target),
    });
  }
}

describe('a handler that outlives its timeout', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;
  const drops = (handler: string) =>
    started.logs
      .lines()
      .filter(
        (l) => l.msg === 'write dropped: the handler was abandoned (timeout or shutdown)' && l.handler === handler,
      );

  beforeAll(async () => {
    platform = await TestPlatform.start();
    // The handlers wait on gates the test opens only after the apology arrived: the tiny timeout
    // always passes first, however loaded the machine.
    started = platform.bot({ handlers: [Slow, SlowHooked, SlowListener], handlerTimeoutMs: 50 });
    await started.bot.start();
  });

  afterAll(async () => {
    for (const gate of [commandGate, listenerGate, hookedGate]) gate.open();
    await started?.bot.stop();
    await platform?.close();
  });

  it('gets the apology; its late reply, follow-up and send are dropped and logged, its returned body unsent', async () => {
    const interaction = await platform.invoke(platform.alice, platform.general, 'slow');
    const first = await platform.answers(interaction.id, 1);
    expect(first.answers.map((m) => m.content)).toEqual([APOLOGY]);
    commandGate.open();
    await until(
      () =>
        started.logs
          .lines()
          .some((l) => l.msg === 'handler finished after it was abandoned' && l.handler === 'Slow.run'),
      'the handler ended, its returned body handled',
    );
    expect(commandGate.outcomes).toEqual([
      'reply: BOARDBOT_WRITE_DROPPED',
      'followUp: BOARDBOT_WRITE_DROPPED',
      'send: BOARDBOT_WRITE_DROPPED',
    ]);
    expect(drops('Slow.run').map((l) => l.write)).toEqual(['reply', 'followUp', 'send']);
    expect(drops('Slow.run')[0]).toMatchObject({ interaction_id: interaction.id, event_id: expect.any(String) });
    const after = await platform.answers(interaction.id, 2, 0);
    expect(after.answers.map((m) => m.content)).toEqual([APOLOGY]);
    const board = (await platform.messages(platform.general, 20)).map((m) => m.content);
    expect(board).not.toContain('late send');
    expect(board).not.toContain('late return value');
  });

  it('its error hook still answers for it, while its own late reply is dropped', async () => {
    const interaction = await platform.invoke(platform.alice, platform.general, 'slowhooked');
    const first = await platform.answers(interaction.id, 1);
    expect(first.answers.map((m) => m.content)).toEqual(['That took too long (BOARDBOT_HANDLER_TIMEOUT).']);
    hookedGate.open();
    await until(() => hookedGate.finished, 'the handler tried its late reply');
    expect(hookedGate.outcomes).toEqual(['reply: BOARDBOT_WRITE_DROPPED']);
    expect((await platform.answers(interaction.id, 2, 0)).answers).toHaveLength(1);
  });

  it('a listener’s late reply, send, edit and delete are dropped too', async () => {
    const rest = new RestClient({ token: platform.token, baseUrl: platform.apiUrl });
    listenerGate.target = await rest.sendMessage(platform.random.id, { content: 'the bot’s own message' });
    await rest.close();
    const trigger = await platform.post(platform.bob, platform.random, 'slow listener');
    await until(
      async () => (await platform.messages(platform.random, 10)).some((m) => m.reply_to === trigger.id),
      'the apology to the listener’s message',
    );
    listenerGate.open();
    await until(() => listenerGate.finished, 'the listener tried its writes');
    expect(listenerGate.outcomes).toEqual([
      'reply: BOARDBOT_WRITE_DROPPED',
      'send: BOARDBOT_WRITE_DROPPED',
      'edit: BOARDBOT_WRITE_DROPPED',
      'delete: BOARDBOT_WRITE_DROPPED',
    ]);
    expect(drops('SlowListener.onSlow').map((l) => l.write)).toEqual(['reply', 'send', 'edit', 'delete']);
    const board = await platform.messages(platform.random, 10);
    expect(board.filter((m) => m.reply_to === trigger.id).map((m) => m.content)).toEqual([APOLOGY]);
    expect(board.find((m) => m.id === listenerGate.target?.id)).toMatchObject({
      content: 'the bot’s own message',
      edited_at: null,
      deleted_at: null,
    });
    expect(board.map((m) => m.content)).not.toContain('late listener send');
  });
});
