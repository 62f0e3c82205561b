import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  type BotGateway,
  Command,
  type CommandContext,
  createBot,
  type MessageContext,
  OnMessage,
  Option,
} from '@boardbot/core';
import { createEmulator } from '@boardbot/emulator';
import type { App, Interaction, Message, ReadyEvent, UserProfile } from '@boardbot/protocol';
import { IsInt, Max, Min } from 'class-validator';
import { it } from 'vitest';
import { opsPerSecond } from './lib/measure.js';
import { record } from './lib/record.js';

// Dispatch overhead per event: the runtime (queue, routing, option conversion and validation,
// guards, middleware, contexts) against calling the same handler directly. Events come from an
// in-process gateway so that only dispatch is measured; the emulator only serves start().

let handled = 0;

class RollOptions {
  @Option({ description: 'Sides' }) @IsInt() @Min(2) @Max(1000) sides!: number;
}

@Command({ name: 'roll', description: 'Roll', options: RollOptions })
class Roll {
  run(_ctx: CommandContext<RollOptions>, options: RollOptions) {
    handled += options.sides > 0 ? 1 : 0;
  }
}

class Listener {
  @OnMessage(/^roll (\d+)$/)
  roll(ctx: MessageContext) {
    handled += ctx.match ? 1 : 0;
  }
}

/** A gateway that delivers what the bench emits, in process. */
class InProcessGateway extends EventEmitter implements BotGateway {
  constructor(private readonly ready: ReadyEvent) {
    super();
  }
  async connect() {
    this.emit('dispatch', { name: 'ready', id: '0', data: this.ready });
    return this.ready;
  }
  async close() {}
}

it('dispatches events at a small constant cost over calling the handler directly', async () => {
  const emu = await createEmulator({ db: ':memory:', logger: false });
  const { apiUrl } = await emu.listen({ host: '127.0.0.1', port: 0 });
  const app = (await (await fetch(`${apiUrl}/app`, { headers: { authorization: 'Bearer dev-token' } })).json()) as App;
  const boards = (await (
    await fetch(`${apiUrl}/boards`, { headers: { authorization: 'Bearer dev-token' } })
  ).json()) as {
    boards: { id: string }[];
  };
  const boardId = boards.boards[0]?.id as string;
  const ready: ReadyEvent = { type: 'ready', app, board_ids: [boardId], resumed: false };
  let gateway: InProcessGateway | undefined;
  const bot = createBot({
    token: 'dev-token',
    apiUrl,
    handlers: [Roll, Listener],
    logger: false,
    handleSignals: false,
    // The default hang timeout arms a timer per handler; it is part of the measured cost.
    gateway: () => {
      gateway = new InProcessGateway(ready);
      return gateway;
    },
  });
  await bot.start();
  const gw = gateway as InProcessGateway;

  const now = new Date().toISOString();
  const user: UserProfile = {
    id: randomUUID(),
    username: 'alice',
    display_name: 'Alice',
    avatar_url: null,
    is_bot: false,
    created_at: now,
  };
  const interaction = (): Interaction => ({
    id: randomUUID(),
    type: 'command',
    token: 'x'.repeat(43),
    app_id: app.id,
    board_id: boardId,
    user,
    command: { name: 'roll', subcommand: null, options: { sides: 20 } },
    created_at: now,
    expires_at: new Date(Date.now() + 900_000).toISOString(),
  });
  let seq = 0;
  // A webhook message: no author profile to read, so no REST call in the loop.
  const message = (): Message => ({
    id: randomUUID(),
    board_id: boardId,
    author: null,
    kind: 'default',
    content: 'roll 20',
    media: null,
    embeds: null,
    webhook_name: 'bench',
    reply_to: null,
    seq: ++seq,
    created_at: now,
    edited_at: null,
    deleted_at: null,
    interaction: null,
  });

  /** Events per second through the runtime: `n` events emitted, then until all are handled. */
  const throughput = async (make: () => { name: string; data: unknown }, n: number) => {
    const events = Array.from({ length: n }, (_, i) => ({ id: String(i + 1), ...make() }));
    const before = handled;
    const start = performance.now();
    for (const e of events) gw.emit('dispatch', e);
    await bot.idle();
    const ms = performance.now() - start;
    if (handled - before !== n) throw new Error(`handled ${handled - before} of ${n}`);
    return (n * 1000) / ms;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

  const command = () => ({
    name: 'interaction.create',
    data: { type: 'interaction.create', interaction: interaction() },
  });
  const msg = () => ({ name: 'message.create', data: { type: 'message.create', message: message() } });
  await throughput(command, 2000);
  await throughput(msg, 2000);
  const commandRates: number[] = [];
  const messageRates: number[] = [];
  for (let round = 0; round < 5; round++) {
    commandRates.push(await throughput(command, 5000));
    messageRates.push(await throughput(msg, 5000));
  }

  // Baselines: the same handler methods, called directly with what they need.
  const roll = new Roll();
  const options = Object.assign(new RollOptions(), { sides: 20 });
  const direct = await opsPerSecond(() => roll.run({} as CommandContext<RollOptions>, options));
  const listener = new Listener();
  const pattern = /^roll (\d+)$/;
  const directMessage = await opsPerSecond(() => listener.roll({ match: pattern.exec('roll 20') } as MessageContext));

  await bot.stop();
  await emu.close();
  const commandRate = median(commandRates);
  const messageRate = median(messageRates);
  record(
    {
      bench: 'core: dispatch',
      subject: 'command handler called directly (baseline)',
      value: direct,
      unit: 'events/s',
      ratio: 1,
    },
    {
      bench: 'core: dispatch',
      subject: 'interaction.create through the runtime',
      value: commandRate,
      unit: 'events/s',
      ratio: commandRate / direct,
      note: `queue, routing, class-transformer + class-validator, context; ${(1e6 / commandRate).toFixed(1)} µs/event`,
    },
    {
      bench: 'core: dispatch',
      subject: 'message listener called directly (baseline)',
      value: directMessage,
      unit: 'events/s',
      ratio: 1,
    },
    {
      bench: 'core: dispatch',
      subject: 'message.create through the runtime',
      value: messageRate,
      unit: 'events/s',
      ratio: messageRate / directMessage,
      note: `queue, dedupe, regex routing, context; ${(1e6 / messageRate).toFixed(1)} µs/event`,
    },
  );
}, 120_000);
