import { type MessageContext, OnMessage } from '@boardbot/core';
import { until } from '@boardbot/test-support';
import type { TestPlatform } from '@boardbot/testing';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from './support/redis.js';
import { freshPrefix, replicaOf, replicaPlatform } from './support/replicas.js';

const fixture = useRedis();

class Echo {
  @OnMessage(/^trace /)
  echo(ctx: MessageContext) {
    return `traced ${ctx.message.content}`;
  }
}

// What an SDK's register() does: the W3C propagator, through which the trace crosses Redis.
beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
afterAll(() => propagation.disable());

describe('traces across replicas', () => {
  it("continue the reader's receipt of an event in the replica that handles it, through the stream entry", async () => {
    const platform: TestPlatform = await replicaPlatform();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const keyPrefix = freshPrefix();
    const replicas = [0, 1].map(() =>
      replicaOf(platform as TestPlatform, fixture().server.url, keyPrefix, { handlers: [Echo], tracing: provider }),
    );
    try {
      for (const bot of replicas) await bot.start();
      for (const board of ['general', 'random']) await platform.person('alice').say(`trace ${board}`, { board });
      const events = () => exporter.getFinishedSpans().filter((s) => s.name === 'event message.create');
      // Alice's two messages and the bot's two answers (which the gateway delivers too).
      await until(async () => events().length === 4, 'four handled events');
      const relays = exporter.getFinishedSpans().filter((s) => s.name === 'relay message.create');
      expect(relays).toHaveLength(4);
      for (const event of events()) {
        const relay = relays.find((r) => r.spanContext().spanId === event.parentSpanContext?.spanId);
        // The handling replica's span is a child of the reader's, in the same trace.
        expect(relay?.spanContext().traceId).toBe(event.spanContext().traceId);
      }
    } finally {
      for (const bot of replicas) await bot.stop();
      await platform.close();
    }
  }, 60_000);
});
