import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import {
  type Bot,
  Command,
  type CommandContext,
  MemoryPositionStore,
  type MessageContext,
  OnMessage,
} from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { envelope, HttpFaultProxy, until } from '@boardbot/test-support';
import { type Context, type ContextManager, context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

@Command({ name: 'ping', description: 'Ping' })
class Ping {
  run(ctx: CommandContext) {
    return ctx.reply('pong');
  }
}

class Chatty {
  @OnMessage('!twice')
  async twice(ctx: MessageContext) {
    await ctx.send('one');
    await ctx.send('two');
  }
}

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Holds `!hold` until released; `!beside` on another board says its event was read. */
class Queued {
  static started = signal();
  static beside = signal();
  static release = signal();
  /** When `!beside` and `!after` were handled (`performance.now()`). */
  static besideAt = 0;
  static afterAt = 0;

  @OnMessage('!hold')
  async hold() {
    Queued.started.resolve();
    await Queued.release.promise;
  }

  @OnMessage('!after')
  after() {
    Queued.afterAt = performance.now();
  }

  @OnMessage('!beside')
  besides() {
    Queued.besideAt = performance.now();
    Queued.beside.resolve();
  }
}

/**
 * Bob says `!twice` on general; resolves with his message once the bot posted its second message
 * after it and finished the event.
 */
async function askTwice(platform: Platform, bot: Bot): Promise<Message> {
  const answered = async () =>
    (await platform.messages(platform.general, 50)).filter((m) => m.content === 'two').length;
  const before = await answered();
  const asked = await platform.post(platform.bob, platform.general, '!twice');
  await until(async () => (await answered()) > before, 'two');
  await bot.idle();
  return asked;
}

/** A span tree as names: each span with its children, in start order. */
interface Tree {
  name: string;
  children: Tree[];
}

function treeOf(spans: readonly ReadableSpan[], root: ReadableSpan): Tree {
  const children = spans
    .filter((s) => s.parentSpanContext?.spanId === root.spanContext().spanId)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  return { name: root.name, children: children.map((c) => treeOf(spans, c)) };
}

describe('traces of a bot', () => {
  let platform: Platform;
  let started: ReturnType<Platform['bot']>;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(async () => {
    platform = await TestPlatform.start();
    started = platform.bot({ handlers: [Ping, Chatty, Queued], tracing: provider });
    await started.bot.start();
  });

  afterAll(async () => {
    await started?.bot.stop();
    await platform?.close();
  });

  /** The finished spans of the trace whose root is the event span of `eventName` matching `pick`. */
  function traceOf(eventName: string, pick: (root: ReadableSpan) => boolean): { tree: Tree; spans: ReadableSpan[] } {
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === `event ${eventName}` && s.parentSpanContext === undefined && pick(s));
    if (!root) throw new Error(`no trace of ${eventName}`);
    const traceId = root.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    return { tree: treeOf(inTrace, root), spans: inTrace };
  }

  it('traces a command that replies: event, handler, and the REST call the emulator received with its traceparent', async () => {
    const interaction = await platform.invoke(platform.alice, platform.general, 'ping');
    const view = await platform.answers(interaction.id);
    await started.bot.idle();
    const { tree, spans } = traceOf('interaction.create', (root) =>
      spansOf(root).some((s) => s.attributes['boardbot.command'] === 'ping'),
    );
    expect(tree).toEqual({
      name: 'event interaction.create',
      children: [{ name: 'handler Ping.run', children: [{ name: 'POST /interactions/{token}', children: [] }] }],
    });
    const handler = spans.find((s) => s.name === 'handler Ping.run');
    expect(handler?.attributes).toMatchObject({
      'boardbot.handler': 'Ping.run',
      'boardbot.handler.kind': 'command',
      'boardbot.command': 'ping',
      'boardbot.board_id': platform.general.id,
      'boardbot.outcome': 'ok',
    });
    const call = spans.find((s) => s.name === 'POST /interactions/{token}');
    const answer = view.answers[0];
    if (!answer || !call) throw new Error('no answer');
    const why = await platform.control.why(platform.general.id, answer.id);
    expect(why).toMatchObject({ handler: 'Ping.run', trace_id: call.spanContext().traceId });
    expect(why.calls.map((c) => [c.span_id, c.status])).toEqual([[call.spanContext().spanId, 200]]);
    expect(why.event?.name).toBe('interaction.create');
  });

  it('traces a listener that sends twice: two REST spans under its handler span, each seen by the emulator', async () => {
    const asked = await askTwice(platform, started.bot);
    const { tree, spans } = traceOf('message.create', (root) =>
      spansOf(root).some((s) => s.name === 'handler Chatty.twice'),
    );
    expect(tree).toEqual({
      name: 'event message.create',
      children: [
        { name: 'GET /users/{userId}', children: [] },
        {
          name: 'handler Chatty.twice',
          children: [
            { name: 'POST /boards/{boardId}/messages', children: [] },
            { name: 'POST /boards/{boardId}/messages', children: [] },
          ],
        },
      ],
    });
    const sent = (await platform.messages(platform.general, 5)).filter(
      (m) => m.content === 'one' || m.content === 'two',
    );
    const posts = spans.filter((s) => s.name === 'POST /boards/{boardId}/messages').map((s) => s.spanContext().spanId);
    for (const message of sent) {
      const why = await platform.control.why(platform.general.id, message.id);
      expect(why.handler).toBe('Chatty.twice');
      expect(why.event?.data).toMatchObject({ message: { id: asked.id } });
      const creator = why.calls.find((c) => c.message_id === message.id);
      expect(posts).toContain(creator?.span_id);
    }
  });

  it("dates an event's span from its receipt, though its dispatch waits for an earlier event of its board", async () => {
    await platform.post(platform.bob, platform.general, '!hold');
    await Queued.started.promise;
    await platform.post(platform.bob, platform.general, '!after');
    // The gateway delivers in order: once an event posted later on another board is handled, the
    // bot has read `!after`, which waits behind `!hold` in its board's queue.
    await platform.post(platform.bob, platform.random, '!beside');
    await Queued.beside.promise;
    await platform.messages(platform.general, 1); // one more round trip while `!after` waits
    Queued.release.resolve();
    await until(() => exporter.getFinishedSpans().some((s) => s.name === 'handler Queued.after'), 'after handled');
    await started.bot.idle();
    const after = traceOf('message.create', (root) => spansOf(root).some((s) => s.name === 'handler Queued.after'));
    const event = after.spans.find((s) => s.name === 'event message.create');
    if (!event) throw new Error('no event span');
    // A span's own duration is exact (its start and end are on one clock). Received before `!beside`
    // was handled and ended after its handler ran, the span lasts at least as long as that; a span
    // begun at dispatch would miss the wait (and the round trip made during it).
    const ms = event.duration[0] * 1000 + event.duration[1] / 1e6;
    expect(ms).toBeGreaterThanOrEqual(Queued.afterAt - Queued.besideAt);
  });

  /** The spans of the trace `root` starts. */
  function spansOf(root: ReadableSpan): ReadableSpan[] {
    return exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === root.spanContext().traceId);
  }
});

describe('traces of a bot whose sampler drops every trace', () => {
  it('records no span, and its REST calls still carry one trace id per event and the handler that made them', async () => {
    const platform = await TestPlatform.start();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const started = platform.bot({ handlers: [Chatty], tracing: provider });
    try {
      await started.bot.start();
      await askTwice(platform, started.bot);
      expect(exporter.getFinishedSpans()).toEqual([]);
      const sent = (await platform.messages(platform.general, 5)).filter(
        (m) => m.content === 'one' || m.content === 'two',
      );
      expect(sent).toHaveLength(2);
      const whys = await Promise.all(sent.map((m) => platform.control.why(platform.general.id, m.id)));
      expect(whys.map((w) => w.handler)).toEqual(['Chatty.twice', 'Chatty.twice']);
      // The event's trace, not sampled, is the one both calls carried.
      const [first, second] = whys;
      expect(first?.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(second?.trace_id).toBe(first?.trace_id);
    } finally {
      await started.bot.stop();
      await platform.close();
    }
  });

  it("makes no handler span under an event sampled out, though the SDK's sampler would record one", async () => {
    const platform = await TestPlatform.start();
    const exporter = new InMemorySpanExporter();
    // Roots dropped, but any child of a local unsampled parent recorded: the REST calls' spans show
    // what the sampler records; a handler span made under the event would be recorded too.
    const sampler = new ParentBasedSampler({
      root: new AlwaysOffSampler(),
      localParentNotSampled: new AlwaysOnSampler(),
    });
    const provider = new BasicTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const started = platform.bot({ handlers: [Chatty], tracing: provider });
    try {
      await started.bot.start();
      await askTwice(platform, started.bot);
      const names = exporter.getFinishedSpans().map((s) => s.name);
      expect(names.filter((n) => n === 'POST /boards/{boardId}/messages')).toHaveLength(2);
      expect(names.filter((n) => n.startsWith('handler ') || n.startsWith('event '))).toEqual([]);
    } finally {
      await started.bot.stop();
      await platform.close();
    }
  });
});

describe('traces of a bot given no provider', () => {
  it('makes no span while no SDK is registered, and uses one registered after it started from the next event', async () => {
    const platform = await TestPlatform.start();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const started = platform.bot({ handlers: [Chatty] });
    try {
      await started.bot.start();
      await askTwice(platform, started.bot);
      expect(exporter.getFinishedSpans()).toEqual([]);
      trace.setGlobalTracerProvider(provider);
      await askTwice(platform, started.bot);
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(
        expect.arrayContaining(['event message.create', 'handler Chatty.twice', 'POST /boards/{boardId}/messages']),
      );
    } finally {
      trace.disable();
      await started.bot.stop();
      await platform.close();
    }
  });
});

describe('traces of a bot given tracing: false', () => {
  it('makes no span even with a global SDK, and its REST calls carry no traceparent nor baggage', async () => {
    const platform = await TestPlatform.start();
    const exporter = new InMemorySpanExporter();
    // Registered globally: a bot that ignored `tracing: false` would take its spans from it.
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const started = platform.bot({ handlers: [Chatty], tracing: false });
    try {
      await started.bot.start();
      await askTwice(platform, started.bot);
      expect(exporter.getFinishedSpans()).toEqual([]);
      const two = (await platform.messages(platform.general, 5)).find((m) => m.content === 'two');
      const why = await platform.control.why(platform.general.id, two?.id ?? '');
      // Neither traceparent nor baggage: the emulator learns no trace and no handler, only the request id.
      expect(why.trace_id ?? null).toBeNull();
      expect(why.handler ?? null).toBeNull();
      expect(why.request_id).toMatch(/./);
    } finally {
      trace.disable();
      await started.bot.stop();
      await platform.close();
    }
  });
});

/** A context manager as an SDK registers one (NodeSDK's keeps the context in an AsyncLocalStorage). */
class StoreContextManager implements ContextManager {
  private readonly store = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.store.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.store.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const store = this.store;
    return function (this: unknown, ...args: unknown[]) {
      return store.run(ctx, () => target.apply(this, args));
    } as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.store.disable();
    return this;
  }
}

/** Reads the span OpenTelemetry's API says is active in the handler, as a library it calls would. */
class Active {
  static spanId: string | undefined;
  @OnMessage('!active')
  active() {
    Active.spanId = trace.getActiveSpan()?.spanContext().spanId;
  }
}

describe('traces of a bot under a context manager', () => {
  it("makes the handler's span the active one in its handler, for the libraries it calls", async () => {
    const platform = await TestPlatform.start();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    context.setGlobalContextManager(new StoreContextManager());
    const started = platform.bot({ handlers: [Active], tracing: provider });
    try {
      await started.bot.start();
      await platform.post(platform.bob, platform.general, '!active');
      await until(() => exporter.getFinishedSpans().some((s) => s.name === 'handler Active.active'), 'handled');
      const span = exporter.getFinishedSpans().find((s) => s.name === 'handler Active.active');
      expect(Active.spanId).toBe(span?.spanContext().spanId);
    } finally {
      context.disable();
      await started.bot.stop();
      await platform.close();
    }
  });
});

/** Sends once (a retried call, behind the proxy), or writes to a board that does not exist (a failure). */
class Retried {
  @OnMessage('!retried')
  retried(ctx: MessageContext) {
    return ctx.send('after a retry');
  }

  @OnMessage('!fails')
  async fails(ctx: MessageContext) {
    await ctx.rest.sendMessage('no-such-board', { content: 'nowhere' });
  }
}

describe('traces of REST calls that were retried or failed', () => {
  it('give the retried call its resend count, the failed one its error type, and its handler the error outcome', async () => {
    const platform = await TestPlatform.start();
    const proxy = await HttpFaultProxy.start(platform.emu.urls?.url ?? '');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const started = platform.bot({ handlers: [Retried], tracing: provider, apiUrl: proxy.apiUrl, errorReply: false });
    let refused = 0;
    // The first send draws a 503, which the client retries.
    proxy.faultWith((request) => {
      if (refused > 0 || request.method !== 'POST' || !request.url.endsWith('/messages')) return undefined;
      refused++;
      return { status: 503, body: envelope('unavailable', 'try again') };
    });
    try {
      await started.bot.start();
      await platform.post(platform.bob, platform.general, '!retried');
      await until(
        async () => (await platform.messages(platform.general, 5)).some((m) => m.content === 'after a retry'),
        'sent',
      );
      await platform.post(platform.bob, platform.general, '!fails');
      await until(() => exporter.getFinishedSpans().some((s) => s.name === 'handler Retried.fails'), 'the failed run');
      await started.bot.idle();
      const spans = exporter.getFinishedSpans();
      const handlerOf = (name: string) => spans.find((s) => s.name === `handler Retried.${name}`);
      const callUnder = (name: string) =>
        spans.find((s) => s.parentSpanContext?.spanId === handlerOf(name)?.spanContext().spanId);
      expect(refused).toBe(1);
      expect(callUnder('retried')?.attributes).toMatchObject({
        'http.request.method': 'POST',
        'url.template': '/boards/{boardId}/messages',
        'http.response.status_code': 200,
        'http.request.resend_count': 1,
      });
      expect(handlerOf('retried')?.attributes['boardbot.outcome']).toBe('ok');
      expect(callUnder('fails')?.attributes['error.type']).toMatch(/^BOARDBOT_/);
      expect(handlerOf('fails')?.attributes['boardbot.outcome']).toBe('error');
      expect(handlerOf('fails')?.status.code).toBe(2);
      expect(handlerOf('fails')?.events.map((e) => e.name)).toContain('exception');
    } finally {
      await started.bot.stop();
      await proxy.close();
      await platform.close();
    }
  });
});

/** Runs past its timeout, then ends when its signal is aborted. */
class Overdue {
  @OnMessage('!overdue')
  async overdue(ctx: MessageContext) {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

describe('traces of a handler that runs past handlerTimeoutMs', () => {
  it('end its handler span with the timeout outcome and an error status', async () => {
    const platform = await TestPlatform.start();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const started = platform.bot({ handlers: [Overdue], tracing: provider, handlerTimeoutMs: 50, errorReply: false });
    try {
      await started.bot.start();
      await platform.post(platform.bob, platform.general, '!overdue');
      await until(() => exporter.getFinishedSpans().some((s) => s.name === 'handler Overdue.overdue'), 'the run');
      const handler = exporter.getFinishedSpans().find((s) => s.name === 'handler Overdue.overdue');
      expect(handler?.attributes['boardbot.outcome']).toBe('timeout');
      expect(handler?.status.code).toBe(2);
    } finally {
      await started.bot.stop();
      await platform.close();
    }
  });
});

/** Ignores its signal until the test lets it go. */
class Stubborn {
  static entered = signal();
  static release = signal();

  @OnMessage('!stubborn')
  async stubborn() {
    Stubborn.entered.resolve();
    await Stubborn.release.promise;
  }
}

describe('traces of a handler still running when stop() gives up', () => {
  it('end its handler span with the abandoned outcome', async () => {
    const platform = await TestPlatform.start();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const started = platform.bot({ handlers: [Stubborn], tracing: provider, shutdownTimeoutMs: 50 });
    try {
      await started.bot.start();
      await platform.post(platform.bob, platform.general, '!stubborn');
      await Stubborn.entered.promise;
      const report = await started.bot.stop();
      expect(report.abandoned).toEqual([expect.objectContaining({ handler: 'Stubborn.stubborn' })]);
      const handler = exporter.getFinishedSpans().find((s) => s.name === 'handler Stubborn.stubborn');
      expect(handler?.attributes['boardbot.outcome']).toBe('abandoned');
      expect(handler?.status.code).toBe(2);
    } finally {
      Stubborn.release.resolve();
      await started.bot.stop();
      await platform.close();
    }
  });
});

/** Answers `!seen <text>`; the spans say whether its event was replayed. */
class Seen {
  @OnMessage(/^!seen /)
  seen(ctx: MessageContext) {
    return `seen ${ctx.message.content?.slice(6)}`;
  }
}

describe('traces of an event that arrived while the bot was down', () => {
  it('mark its handler span boardbot.replayed, and a live one not', async () => {
    const platform = await TestPlatform.start();
    const position = new MemoryPositionStore();
    const first = platform.bot({ handlers: [Seen], position });
    await first.bot.start();
    await first.bot.stop();
    await platform.post(platform.bob, platform.general, '!seen while down');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const second = platform.bot({ handlers: [Seen], position, tracing: provider });
    try {
      await second.bot.start();
      await platform.post(platform.bob, platform.general, '!seen live');
      const answered = async (text: string) =>
        (await platform.messages(platform.general, 10)).some((m) => m.content === `seen ${text}`);
      await until(async () => (await answered('while down')) && (await answered('live')), 'both answered');
      await second.bot.idle();
      const spans = exporter.getFinishedSpans().filter((s) => s.name === 'handler Seen.seen');
      expect(spans.map((s) => s.attributes['boardbot.replayed'] ?? false)).toEqual([true, false]);
    } finally {
      await second.bot.stop();
      await platform.close();
    }
  });
});
