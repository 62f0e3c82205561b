import { type Bot, type MessageContext, OnMessage } from '@boardbot/core';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
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
// interleaved rounds of one run so that drift of the machine hits the three alike. And boardbot's
// own cost around the SDK (issue 35): per round, the SDK mode minus `tracing: false` minus the same
// two spans made bare (the event's and its handler's, with the same attributes, in a loop on the same
// provider), each round's difference paired from figures measured next to each other.

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

  /** CPU microseconds per event of the SDK's two spans with nothing around them, as the runtime makes them. */
  const tracer = sdk.getTracer('bare');
  const bareSpans = (n: number) => {
    const boardId = rig.boardIds[0] as string;
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const event = tracer.startSpan(
        'event message.create',
        {
          kind: SpanKind.CONSUMER,
          startTime: performance.now(),
          attributes: { 'boardbot.event.name': 'message.create', 'boardbot.event.id': String(i) },
        },
        ROOT_CONTEXT,
      );
      const parent = trace.setSpan(ROOT_CONTEXT, event);
      const attributes = {
        'boardbot.handler': 'Listener.roll',
        'boardbot.handler.kind': 'message',
        'boardbot.board_id': boardId,
      };
      const handler = tracer.startSpan('handler Listener.roll', { attributes }, parent);
      handled += handler.isRecording() ? 1 : 0;
      handler.setAttribute('boardbot.outcome', 'ok');
      handler.end();
      event.end(performance.now());
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / n;
  };

  /** CPU microseconds (user + system) per event for `n` events through one bot (or bare spans, last). */
  const cpuPerEvent = async (i: number, n: number) => {
    if (i === bots.length) return bareSpans(n);
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

  // The modes' bots, then the bare spans.
  const subjects = modes.length + 1;
  for (let i = 0; i < subjects; i++) await cpuPerEvent(i, 2000);
  const samples: number[][] = Array.from({ length: subjects }, () => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round, so no mode always runs first (on a cooler cache) or last.
    for (let k = 0; k < subjects; k++) {
      const i = (round + k) % subjects;
      samples[i]?.push(await cpuPerEvent(i, EVENTS));
    }
  }
  for (const b of bots) await b.bot.stop();
  await rig.close();

  const off = median(samples[0] ?? []);
  const spread = (xs: number[]) =>
    `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} µs/event over ${ROUNDS} interleaved rounds`;
  const targets = ['', '; target ≥ 0.95 of off', '; target ≥ 0.8 of off', ''];
  const bare = samples[modes.length] ?? [];
  // boardbot's own cost around the SDK, per round: SDK on, minus off, minus the two spans bare.
  const own = (samples[2] ?? []).map((on, round) => on - (samples[0]?.[round] ?? 0) - (bare[round] ?? 0));
  const sorted = [...own].sort((a, b) => a - b);
  record(
    {
      bench: 'core: tracing cost',
      subject: 'the same two spans made bare on the SDK, no runtime around them',
      value: median(bare),
      unit: 'µs CPU/event',
      note: spread(bare),
    },
    {
      bench: 'core: tracing cost',
      subject: "boardbot's own cost around the SDK (SDK − off − bare spans)",
      value: median(own),
      unit: 'µs CPU/event',
      note: `paired per round: ${(sorted[0] ?? 0).toFixed(2)} to ${(sorted[sorted.length - 1] ?? 0).toFixed(2)} µs, interquartile ${(sorted[Math.floor(ROUNDS / 4)] ?? 0).toFixed(2)} to ${(sorted[Math.ceil((3 * ROUNDS) / 4) - 1] ?? 0).toFixed(2)} µs over ${ROUNDS} rounds; target: upper end ≤ 0.5 µs`,
    },
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
