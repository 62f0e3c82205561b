import { type Bot, type MessageContext, OnMessage } from '@boardbot/core';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { it } from 'vitest';
import { type InProcessGateway, inProcessRig, median } from './lib/in-process-bot.js';
import { record } from './lib/record.js';

// What tracing costs dispatch: CPU time per event with telemetry off (`tracing: false`), with the
// OpenTelemetry API and no SDK (the default), and with an SDK whose exporter drops every span, in
// interleaved rounds of one run so that drift of the machine hits the three alike.

let handled = 0;

class Listener {
  @OnMessage(/^roll (\d+)$/)
  roll(ctx: MessageContext) {
    handled += ctx.match ? 1 : 0;
  }
}

/** An exporter that drops what it is given: the SDK's own work is measured, not an export. */
const dropAll: SpanExporter = {
  export(_spans, done) {
    done({ code: 0 });
  },
  shutdown: async () => {},
};

const ROUNDS = 9;
const EVENTS = 4000;

it('traces dispatch at a small CPU cost per event, with and without an SDK', async () => {
  const rig = await inProcessRig();
  const sdk = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropAll)] });
  // What production usually runs: one trace in ten recorded (the others cost a non-recording span).
  const sampled = new BasicTracerProvider({
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) }),
    spanProcessors: [new BatchSpanProcessor(dropAll)],
  });
  const modes = [
    { name: 'telemetry off (tracing: false)', tracing: false as const },
    { name: 'OpenTelemetry API, no SDK (default)', tracing: undefined },
    { name: 'SDK (batch processor), exporter that drops every span', tracing: sdk },
    { name: 'same SDK sampling 1 trace in 10', tracing: sampled },
  ];
  const bots: { bot: Bot; gateway: InProcessGateway; nextId: number }[] = [];
  for (const mode of modes) {
    const started = await rig.bot({
      handlers: [Listener],
      logger: false,
      handleSignals: false,
      position: false,
      ...(mode.tracing === undefined ? {} : { tracing: mode.tracing }),
    });
    bots.push({ ...started, nextId: 1 });
  }

  /** CPU microseconds (user + system) per event for `n` events through one bot. */
  const cpuPerEvent = async (i: number, n: number) => {
    const b = bots[i] as (typeof bots)[number];
    const events = Array.from({ length: n }, () => ({
      id: String(b.nextId++),
      name: 'message.create',
      data: { type: 'message.create', message: rig.message() },
    }));
    const before = handled;
    const cpu = process.cpuUsage();
    for (const e of events) b.gateway.emit('dispatch', e);
    await b.bot.idle();
    const used = process.cpuUsage(cpu);
    if (handled - before !== n) throw new Error(`handled ${handled - before} of ${n}`);
    return (used.user + used.system) / n;
  };

  for (let i = 0; i < modes.length; i++) await cpuPerEvent(i, 2000);
  const samples: number[][] = modes.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round, so no mode always runs first (on a cooler cache) or last.
    for (let k = 0; k < modes.length; k++) {
      const i = (round + k) % modes.length;
      samples[i]?.push(await cpuPerEvent(i, EVENTS));
    }
  }
  for (const b of bots) await b.bot.stop();
  await rig.close();

  const off = median(samples[0] ?? []);
  const spread = (xs: number[]) =>
    `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} µs/event over ${ROUNDS} interleaved rounds`;
  const targets = ['', '; target ≥ 0.95 of off', '; target ≥ 0.8 of off', ''];
  record(
    ...modes.map((mode, i) => {
      const xs = samples[i] ?? [];
      const us = median(xs);
      return {
        bench: 'core: tracing cost',
        subject: mode.name,
        value: 1e6 / us,
        unit: 'events/CPU-s',
        ratio: off / us,
        note: `${us.toFixed(1)} µs CPU/event (${spread(xs)})${targets[i]}`,
      };
    }),
  );
}, 180_000);
