import { type Bot, Command, type CommandContext, type MessageContext, OnMessage } from '@boardbot/core';
import { keyBasis, writeKey } from '@boardbot/core/internal';
import { RestClient } from '@boardbot/rest';
import { HttpFaultProxy, until } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBotBehindProxy } from './support/bot-behind-proxy.js';
import type { LogCapture } from './support/logs.js';
import { TestPlatform } from './support/platform.js';

class Direct {
  // Writes through the REST client itself, not through the context's methods.
  @OnMessage('direct')
  async post(ctx: MessageContext) {
    await ctx.rest.sendMessage(ctx.boardId, { content: 'first direct write' });
    await ctx.rest.sendMessage(ctx.boardId, { content: 'second direct write' });
  }
}

describe('ctx.rest used directly inside a handler', () => {
  // Between the bot and the emulator: it records the headers each request carried on the wire.
  const behind = useBotBehindProxy({ handlers: [Direct] });

  it('sends an Idempotency-Key derived from the event with each write, in order', async () => {
    const { platform, proxy } = behind();
    const trigger = await platform.post(platform.alice, platform.random, 'direct');
    await until(
      async () => (await platform.messages(platform.random, 5)).some((m) => m.content === 'second direct write'),
      'both writes reached the board',
    );
    const sent = proxy.seen.filter(
      (r) => r.method === 'POST' && r.url === `/api/v1/boards/${platform.random.id}/messages`,
    );
    const event = { name: 'message.create', id: '', data: { type: 'message.create', message: trigger } } as const;
    const run = { keyBasis: keyBasis(event), handler: 'Direct.post' };
    // The keys a run of this message makes, live or after a restart: not a fresh random key per call.
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual([writeKey(run, 0), writeKey(run, 1)]);
  });
});

/** A provider that holds a REST client, as a service of the author's would. */
class Notifier {
  constructor(readonly rest: RestClient) {}
}

/** A library handed a client: it knows nothing of boardbot's runs. */
const library = {
  edit: (rest: RestClient, boardId: string, id: string) =>
    rest.editMessage(boardId, id, { content: 'edited by a library' }),
};

/** The provider holding the client the author gave the bot. */
let notifier: Notifier | undefined;
/** The named key the command asked for. */
let named = '';

class Routes {
  // Each write route: the bot's own client held by a provider (outside the run), and `ctx.rest`
  // handed to a provider and to a library (inside it).
  @OnMessage('routes')
  async write(ctx: MessageContext) {
    const own = (notifier as Notifier).rest;
    await own.sendMessage(ctx.boardId, { content: 'sent by a provider, on its own' });
    const sent = await new Notifier(ctx.rest).rest.sendMessage(ctx.boardId, { content: 'sent by a provider' });
    await library.edit(ctx.rest, ctx.boardId, sent.id);
    await own.deleteMessage(ctx.boardId, sent.id);
    await ctx.rest.sendMessage(ctx.boardId, { content: 'sent on ctx.rest' });
  }
}

@Command({ name: 'answer', description: 'Answers through a provider' })
class Answer {
  async run(ctx: CommandContext) {
    if (ctx.via !== 'slash') return;
    named = ctx.idempotencyKey('answer');
    const body = { content: 'answered by a provider' };
    await (notifier as Notifier).rest.answerInteraction(ctx.interaction.token, body, { idempotencyKey: named });
  }
}

describe('a REST client given to createBot (docs/production.md)', () => {
  let platform: TestPlatform;
  let proxy: HttpFaultProxy;
  let own: RestClient;
  let started: { bot: Bot; logs: LogCapture };
  const keysOf = (method: string, path: RegExp) =>
    proxy.seen.filter((r) => r.method === method && path.test(r.url)).map((r) => r.headers['idempotency-key']);

  beforeAll(async () => {
    platform = await TestPlatform.start();
    proxy = await HttpFaultProxy.start(platform.emu.urls?.url ?? '');
    own = new RestClient({ token: platform.token, baseUrl: proxy.apiUrl });
    notifier = new Notifier(own);
    started = platform.bot({ handlers: [Routes, Answer], rest: own, apiUrl: proxy.apiUrl });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    // stop() leaves the client open: it stays the author's.
    await expect(own.getApp()).resolves.toMatchObject({ id: expect.any(String) });
    await own.close();
    await proxy?.close();
    await platform?.close();
  });

  /** Posts `routes` once and waits for its handler's last write; returns the keys its run derives. */
  let posted: Promise<{ key: (n: number) => string }> | undefined;
  const routes = () => {
    posted ??= postRoutes();
    return posted;
  };
  async function postRoutes(): Promise<{ key: (n: number) => string }> {
    const trigger = await platform.post(platform.alice, platform.random, 'routes');
    await until(
      async () => (await platform.messages(platform.random, 5)).some((m) => m.content === 'sent on ctx.rest'),
      'the handler wrote on ctx.rest',
    );
    const event = { name: 'message.create', id: '', data: { type: 'message.create', message: trigger } } as const;
    const run = { keyBasis: keyBasis(event), handler: 'Routes.write' };
    return { key: (n) => writeKey(run, n) };
  }

  it('needs nothing of its author: the bot does not warn about it', () => {
    expect(started.logs.lines().filter((l) => l.level === 40)).toEqual([]);
  });

  it("send: the client itself, held by a provider, writes outside the run (a key of its own); ctx.rest handed to one writes with the run's keys, in order", async () => {
    const { key } = await routes();
    const [outside, ...inside] = keysOf('POST', /\/boards\/[^/]+\/messages$/).slice(-3);
    expect(outside).not.toMatch(/^bb1:/);
    expect(inside).toEqual([key(0), key(2)]);
  });

  it("edit: a library handed ctx.rest edits with the run's next key", async () => {
    const { key } = await routes();
    expect(keysOf('PATCH', /\/messages\//)).toEqual([key(1)]);
  });

  it('delete: a provider deletes with no key (a delete is idempotent by itself), as before', async () => {
    await routes();
    expect(keysOf('DELETE', /\/messages\//)).toEqual([undefined]);
  });

  it('interaction answer: a provider given ctx.idempotencyKey(name) answers with that key', async () => {
    const interaction = await platform.invoke(platform.alice, platform.random, 'answer');
    await platform.answers(interaction.id);
    expect(keysOf('POST', /\/interactions\//)).toEqual([named]);
    expect(named).toMatch(/^bb1:.+:n:answer$/);
  });
});
