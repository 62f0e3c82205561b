import { Command, type CommandContext, type MessageContext, OnMessage } from '@boardbot/core';
import { type GatewayBodyReader, GatewayClient, type GatewayFetch } from '@boardbot/gateway';
import { envelope, HttpFaultProxy, promtoolCheck, rateLimitHeaders, sample, until } from '@boardbot/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestPlatform as Platform, TestPlatform } from './support/platform.js';

@Command({ name: 'ping', description: 'Ping' })
class Ping {
  run(ctx: CommandContext) {
    return ctx.reply('pong');
  }
}

@Command({ name: 'boom', description: 'Fails' })
class Boom {
  run(): never {
    throw new Error('boom');
  }
}

/**
 * The gateway's real stream, with `frames` let in once after its `ready` frame: what a platform newer
 * than the runtime (an event name it does not know) or a broken one (a malformed event) would send.
 */
function withFramesAfterReady(frames: string): GatewayFetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    const upstream = response.body?.getReader();
    let seen = '';
    let injected = false;
    const reader = (source: ReadableStreamDefaultReader<Uint8Array>): GatewayBodyReader => ({
      async read() {
        if (!injected && seen.includes('event: ready') && seen.endsWith('\n\n')) {
          injected = true;
          return { done: false, value: new TextEncoder().encode(frames) };
        }
        const chunk = await source.read();
        if (chunk.done) return { done: true };
        seen += new TextDecoder().decode(chunk.value);
        return { done: false, value: chunk.value };
      },
      cancel: (reason?: unknown) => source.cancel(reason),
    });
    return {
      status: response.status,
      url: response.url,
      redirected: response.redirected,
      headers: response.headers,
      body: upstream ? { getReader: () => reader(upstream) } : null,
    };
  };
}

/** Sends four messages in a row: more than a window of two requests holds. */
class Burst {
  @OnMessage('!burst')
  async burst(ctx: MessageContext) {
    for (let i = 1; i <= 4; i++) await ctx.send(`burst ${i}`);
  }
}

let release: (() => void) | undefined;
let entered: (() => void) | undefined;

class Slow {
  @OnMessage('!slow')
  async slow(ctx: MessageContext) {
    entered?.();
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return ctx.reply('done');
  }
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

let platform: Platform | undefined;
let proxy: HttpFaultProxy | undefined;
let stopBot: (() => Promise<unknown>) | undefined;

afterEach(async () => {
  release?.();
  await stopBot?.();
  await proxy?.close();
  await platform?.close();
  platform = undefined;
  proxy = undefined;
  stopBot = undefined;
});

describe('the health endpoint', () => {
  it('serves /healthz, /readyz and /metrics whose counters move by exactly what happened and pass promtool', async () => {
    platform = await TestPlatform.start();
    const { bot } = platform.bot({ handlers: [Ping, Boom], health: { port: 0 } });
    stopBot = () => bot.stop();
    await bot.start();
    const url = bot.healthUrl ?? '';
    // docs/observability.md: `host` defaults to 127.0.0.1, not every interface.
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await get(`${url}/healthz`)).toEqual({ status: 200, text: '{"status":"ok"}' });
    const ready = await get(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ ready: true, checks: { gateway: true, commands: true, running: true } });
    const before = (await get(`${url}/metrics`)).text;

    for (let i = 0; i < 3; i++) await platform.ask(platform.alice, platform.general, 'ping');
    await platform.ask(platform.alice, platform.general, 'boom');
    await bot.idle();
    const after = (await get(`${url}/metrics`)).text;

    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('boardbot_events_received_total', { event: 'interaction.create' })).toBe(4);
    expect(moved('boardbot_handler_duration_seconds_count', { handler: 'Ping.run', outcome: 'ok' })).toBe(3);
    expect(moved('boardbot_handler_duration_seconds_count', { handler: 'Boom.run', outcome: 'error' })).toBe(1);
    // Three pongs and one apology, each an answer to its interaction.
    expect(moved('boardbot_rest_requests_total', { route: '/interactions/{token}', status: '200' })).toBe(4);
    expect(moved('boardbot_rest_retries_total')).toBe(0);
    expect(sample(after, 'boardbot_events_pending')).toBe(0);
    expect(sample(after, 'boardbot_handlers_in_flight')).toBe(0);
    expect(sample(after, 'boardbot_ready')).toBe(1);
    expect(after).toContain('nodejs_eventloop_lag_seconds');
    expect(after).toContain('boardbot_position_lag_seconds');
    for (const id of [platform.general.id, platform.alice.id]) expect(after).not.toContain(id);
    const lint = await promtoolCheck(after);
    expect(lint.output).toBe('');
    expect(lint.code).toBe(0);
    expect((await get(`${url}/nope`)).status).toBe(404);
  });

  it('says not ready from the start of a graceful stop, while handlers finish', async () => {
    platform = await TestPlatform.start();
    const { bot } = platform.bot({ handlers: [Slow], health: { port: 0 } });
    stopBot = () => bot.stop();
    await bot.start();
    const url = bot.healthUrl ?? '';
    const running = new Promise<void>((resolve) => {
      entered = resolve;
    });
    await platform.post(platform.alice, platform.general, '!slow');
    await running;
    expect((await get(`${url}/readyz`)).status).toBe(200);
    const stopping = bot.stop();
    const during = await get(`${url}/readyz`);
    expect(during.status).toBe(503);
    expect(JSON.parse(during.text).checks.running).toBe(false);
    expect(sample((await get(`${url}/metrics`)).text, 'boardbot_handlers_in_flight')).toBe(1);
    release?.();
    expect(await stopping).toEqual({ abandoned: [], unhandled: 0 });
  });

  it('says not ready while the gateway reconnects past the grace period, and ready again once it is back', async () => {
    platform = await TestPlatform.start();
    proxy = await HttpFaultProxy.start(platform.emu.urls?.url ?? '');
    const { bot, logs } = platform.bot({
      handlers: [Ping],
      apiUrl: proxy.apiUrl,
      gateway: (o) => new GatewayClient({ ...o, reconnect: { initialDelayMs: 20, maxDelayMs: 50 } }),
      health: { port: 0, reconnectGraceMs: 0 },
    });
    stopBot = () => bot.stop();
    await bot.start();
    const url = bot.healthUrl ?? '';
    expect((await get(`${url}/readyz`)).status).toBe(200);
    const p = proxy;
    p.cut();
    await until(async () => (await get(`${url}/readyz`)).status === 503, 'readiness dropped while reconnecting');
    expect(JSON.parse((await get(`${url}/readyz`)).text).checks.gateway).toBe(false);
    p.restore();
    await until(async () => (await get(`${url}/readyz`)).status === 200, 'readiness came back after the reconnect');
    expect(sample((await get(`${url}/metrics`)).text, 'boardbot_gateway_reconnects_total')).toBeGreaterThanOrEqual(1);
    // docs/production.md: the gateway client logs its reconnections at warn, with the reason's code.
    const reconnecting = logs.lines().filter((l) => l.component === 'gateway' && l.level === 40);
    expect(reconnecting.length).toBeGreaterThanOrEqual(1);
    expect(reconnecting[0]?.code).toMatch(/^BOARDBOT_/);
  });

  it("counts a 429 by its status, its retry, its wait for the rate limit and each attempt's duration", async () => {
    platform = await TestPlatform.start();
    proxy = await HttpFaultProxy.start(platform.emu.urls?.url ?? '');
    const { bot } = platform.bot({ handlers: [Ping], apiUrl: proxy.apiUrl, health: { port: 0 } });
    stopBot = () => bot.stop();
    await bot.start();
    const url = bot.healthUrl ?? '';
    const before = (await get(`${url}/metrics`)).text;
    let refused = 0;
    // The first answer to an interaction draws a 429, as another process on the token would cause.
    proxy.faultWith((request) => {
      if (refused > 0 || request.method !== 'POST' || !request.url.includes('/interactions/')) return undefined;
      refused++;
      return {
        status: 429,
        headers: { 'retry-after': '1', ...rateLimitHeaders(50, 0, 0.05) },
        body: envelope('rate_limited', 'slow down', { retry_after: 0.05 }),
      };
    });
    expect(await platform.ask(platform.alice, platform.general, 'ping')).toBe('pong');
    await bot.idle();
    const after = (await get(`${url}/metrics`)).text;
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    const answer = { method: 'POST', route: '/interactions/{token}' };
    expect(moved('boardbot_rest_requests_total', { ...answer, status: '429' })).toBe(1);
    expect(moved('boardbot_rest_requests_total', { ...answer, status: '200' })).toBe(1);
    expect(moved('boardbot_rest_request_duration_seconds_count', answer)).toBe(2);
    expect(moved('boardbot_rest_retries_total', answer)).toBe(1);
    expect(moved('boardbot_rest_rate_limit_waits_total', { reason: 'retry_after' })).toBeGreaterThanOrEqual(1);
    expect(moved('boardbot_rest_rate_limit_wait_seconds_total')).toBeGreaterThan(0);
    expect(
      moved('boardbot_handler_duration_seconds_count', { handler: 'Ping.run', kind: 'command', outcome: 'ok' }),
    ).toBe(1);
  });

  it('counts the waits of a spent rate-limit window as exhausted', async () => {
    platform = await TestPlatform.start({ rateLimit: { requests: 2, windowMs: 300 } });
    const { bot } = platform.bot({ handlers: [Burst], health: { port: 0 } });
    stopBot = () => bot.stop();
    await bot.start();
    const url = bot.healthUrl ?? '';
    const before = (await get(`${url}/metrics`)).text;
    const p = platform;
    await p.post(p.alice, p.general, '!burst');
    await until(async () => (await p.messages(p.general, 10)).some((m) => m.content === 'burst 4'), 'burst 4');
    await bot.idle();
    const after = (await get(`${url}/metrics`)).text;
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('boardbot_rest_rate_limit_waits_total', { reason: 'exhausted' })).toBeGreaterThanOrEqual(1);
    expect(moved('boardbot_rest_rate_limit_wait_seconds_total')).toBeGreaterThan(0);
    expect(moved('boardbot_rest_requests_total', { status: '429' })).toBe(0);
    expect(
      moved('boardbot_handler_duration_seconds_count', { handler: 'Burst.burst', kind: 'message', outcome: 'ok' }),
    ).toBe(1);
  });

  it('counts an event name the runtime does not know as other, and skips a malformed event with a warning', async () => {
    platform = await TestPlatform.start();
    const frames = 'event: board.archived\ndata: {"board_id":"b1"}\n\nevent: message.create\ndata: {}\n\n';
    const { bot, logs } = platform.bot({
      handlers: [Ping],
      health: { port: 0 },
      gateway: (o) => new GatewayClient({ ...o, fetch: withFramesAfterReady(frames) }),
    });
    stopBot = () => bot.stop();
    await bot.start();
    const url = bot.healthUrl ?? '';
    await until(
      async () =>
        sample((await get(`${url}/metrics`)).text, 'boardbot_events_received_total', { event: 'other' }) === 1,
      'the unknown event was counted',
    );
    await until(
      () => logs.lines().some((l) => l.msg === 'gateway reported an error'),
      'the malformed event was reported',
    );
    expect(logs.lines().find((l) => l.msg === 'gateway reported an error')).toMatchObject({ level: 40 });
    const metrics = (await get(`${url}/metrics`)).text;
    expect(metrics).not.toContain('event="board.archived"');
    // The bot goes on: a command after them is answered.
    expect(await platform.ask(platform.alice, platform.general, 'ping')).toBe('pong');
  });
});
