import { EventEmitter } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  Command,
  type CommandContext,
  createBot,
  type EventContext,
  Every,
  MemorySessionStore,
  type MessageContext,
  OnEvent,
  OnMessage,
  type ScheduleContext,
} from '@boardbot/core';
import type { GatewayDispatch } from '@boardbot/gateway';
import type { ReadyEvent } from '@boardbot/protocol';
import { alice, BOARD, interaction, message, ready, sendJson, startLoopbackServer, uuid } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';

// The Idempotency-Key of every write a run makes is derived from its event and handler. An old
// process and a new one must derive the same keys during a rolling deploy, so the keys of a fixed set
// of events, recorded from the code before the policy chain and the per-run REST facade, are the
// fixture every later version is held to (write it again only on purpose: BOARDBOT_RECORD_KEYS=1).
const FIXTURE = new URL('./fixtures/write-keys.json', import.meta.url);

const named: string[] = [];

class Echo {
  // Each write route: the context's answer, then ctx.rest's send, edit and delete.
  @OnMessage('echo')
  async echo(ctx: MessageContext) {
    named.push(ctx.idempotencyKey('charge'));
    const sent = await ctx.reply('one');
    await ctx.rest.sendMessage(ctx.boardId, { content: 'two' });
    await ctx.rest.editMessage(ctx.boardId, sent.id, { content: 'one, edited' });
    await ctx.rest.deleteMessage(ctx.boardId, sent.id);
    return 'three';
  }
}

@Command({ name: 'roll', description: 'Rolls a die' })
class Roll {
  async run(ctx: CommandContext) {
    await ctx.reply('rolled');
    await ctx.followUp('again');
    await ctx.send('on the board');
    await ctx.rest.sendMessage(ctx.boardId, { content: 'through rest' });
  }
}

class Joins {
  @OnEvent('message.delete')
  async joined(_data: unknown, ctx: EventContext) {
    await ctx.rest.sendMessage(BOARD, { content: 'welcome' });
    await ctx.rest.sendMessage(BOARD, { content: 'welcome again' });
  }
}

class Ticker {
  @Every('10m')
  async tick(ctx: ScheduleContext) {
    await ctx.rest.sendMessage(BOARD, { content: 'tick' });
  }
}

/** A gateway that hands the bot the events a test pushes, after a fixed `ready`. */
class ScriptedGateway extends EventEmitter {
  async connect(): Promise<ReadyEvent> {
    return ready();
  }
  push(event: GatewayDispatch): void {
    this.emit('dispatch', event);
  }
  async close(): Promise<void> {}
}

const EVENTS: GatewayDispatch[] = [
  { name: 'message.create', id: 'e-1', data: { type: 'message.create', message: message(1, { content: 'echo' }) } },
  {
    name: 'message.edit',
    id: 'e-2',
    data: { type: 'message.edit', message: message(2, { content: 'echo', edited_at: message(3).created_at }) },
  },
  {
    name: 'interaction.create',
    id: 'e-3',
    data: {
      type: 'interaction.create',
      interaction: interaction(1, 0, { command: { name: 'roll', subcommand: null, options: {} } }),
    },
  },
  {
    name: 'message.delete',
    id: 'e-4',
    data: { type: 'message.delete', message: message(4, { deleted_at: message(5).created_at }) },
  },
] as unknown as GatewayDispatch[];

/** Runs the events and one tick through a bot, and returns the keys its writes carried, in order per route. */
async function recordKeys(): Promise<Record<string, (string | null)[]>> {
  let n = 0;
  const server = await startLoopbackServer((req, res) => {
    if (req.url === '/api/v1/app') return sendJson(res, 200, ready().app);
    if (req.url.startsWith('/api/v1/users/')) return sendJson(res, 200, alice());
    if (req.method === 'DELETE') {
      res.writeHead(204).end();
      return;
    }
    sendJson(res, 200, message(500 + n++, { author: uuid(2) }));
  });
  const gateway = new ScriptedGateway();
  const clock = new TestClock('2026-11-21T10:00:30Z');
  const bot = createBot({
    token: 'bb_test',
    apiUrl: server.origin,
    handlers: [Echo, Roll, Joins, Ticker],
    gateway: () => gateway,
    position: false,
    commandSync: 'off',
    handleSignals: false,
    sessions: new MemorySessionStore(),
    clock,
    logger: false,
  });
  try {
    await bot.start();
    for (const event of EVENTS) {
      gateway.push(event);
      await bot.idle();
    }
    clock.advanceTo('2026-11-21T10:10:00Z');
    await server.waitForRequests(server.received.length + 1);
    await bot.idle();
  } finally {
    await bot.stop();
    await server.close();
  }
  const keys: Record<string, (string | null)[]> = { named: [...named] };
  for (const r of server.received) {
    if (r.method === 'GET') continue;
    const route = `${r.method} ${r.url.replace(/[0-9a-f-]{36}|t{43}/g, ':id')}`;
    const key = r.headers['idempotency-key'];
    keys[route] = [...(keys[route] ?? []), typeof key === 'string' ? key : null];
  }
  return keys;
}

describe('the Idempotency-Keys of a fixed set of events', () => {
  it('are byte-identical to the ones recorded before the policy chain and the per-run REST facade', async () => {
    const keys = await recordKeys();
    if (process.env.BOARDBOT_RECORD_KEYS === '1') writeFileSync(FIXTURE, `${JSON.stringify(keys, null, 2)}\n`);
    expect(keys).toEqual(JSON.parse(readFileSync(FIXTURE, 'utf8')));
  });
});
