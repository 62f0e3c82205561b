import { Command, type CommandContext, type MessageContext, OnMessage, Option } from '@boardbot/core';
import { IsInt, Max, Min } from 'class-validator';
import { it } from 'vitest';
import { inProcessRig, median } from './lib/in-process-bot.js';
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

it('dispatches events at a small constant cost over calling the handler directly', async () => {
  const rig = await inProcessRig();
  // The default hang timeout arms a timer per handler; it is part of the measured cost.
  const { bot, gateway: gw } = await rig.bot({
    handlers: [Roll, Listener],
    logger: false,
    handleSignals: false,
    position: false,
    // Above the 5,000 events emitted at once on one board: none is set aside for a read-back over REST
    // (the board's share of the bound), whose messages exist only in this bench's gateway.
    maxPendingEvents: 100_000,
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

  const command = () => ({
    name: 'interaction.create',
    data: { type: 'interaction.create', interaction: rig.interaction() },
  });
  const msg = () => ({ name: 'message.create', data: { type: 'message.create', message: rig.message() } });
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
  await rig.close();
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
