import type { EmulatorOptions } from '@boardbot/emulator';
import { checkerFor, GATEWAY_EVENT_SCHEMAS, type GatewayEventName } from '@boardbot/protocol';
import { SseClient } from '@boardbot/test-support';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_KEY, DEV_TOKEN, FakeClock, Harness } from './helpers/harness.js';

let h: Harness;
let gatewayUrl: string;
const clients: SseClient[] = [];

async function start(options: EmulatorOptions = {}): Promise<void> {
  h = await Harness.start({ rateLimit: { requests: 100_000 }, ...options });
  const { apiUrl } = await h.emu.listen({ port: 0 });
  gatewayUrl = `${apiUrl}/gateway`;
}

async function open(token = DEV_TOKEN, headers: Record<string, string> = {}): Promise<SseClient> {
  const c = await SseClient.open(gatewayUrl, token, headers);
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await h.close();
});

/** Reads the next event and checks its payload against the protocol's schema for its name. */
async function nextChecked(c: SseClient) {
  const f = await c.nextEvent();
  const payload = JSON.parse(f.data);
  expect(payload.type).toBe(f.event);
  const schema = GATEWAY_EVENT_SCHEMAS[f.event as GatewayEventName];
  expect(schema, `unknown event ${f.event}`).toBeDefined();
  expect(checkerFor(schema).check(payload)).toMatchObject({ ok: true });
  return { id: Number(f.id), event: f.event, payload };
}

describe('GET /gateway', () => {
  it('delivers every event of one group commit, in order, when several sends share it', async () => {
    await start();
    const c = await open();
    await c.next();
    await c.nextEvent();
    const board = h.seed.general.id;
    // Sent in one turn, so the emulator commits them together and writes their frames at once.
    const sent = await Promise.all(['one', 'two', 'three'].map((content) => h.send(board, { content })));
    const got = [];
    for (let i = 0; i < sent.length; i++) got.push(await nextChecked(c));
    // In the order the board numbered them, whatever order the three requests were handled in.
    const bySeq = [...sent].sort((a, b) => a.seq - b.seq);
    expect(got.map((e) => e.payload.message.id)).toEqual(bySeq.map((m) => m.id));
    expect(got.map((e) => e.id)).toEqual([got[0]?.id, (got[0]?.id ?? 0) + 1, (got[0]?.id ?? 0) + 2]);
  });

  it('starts with retry and a ready frame, then delivers the four event kinds in order with increasing ids', async () => {
    await start();
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    const c = await open();
    expect(c.status).toBe(200);
    expect(c.res.headers).toMatchObject({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-ratelimit-limit': '100000',
    });
    expect(await c.next()).toEqual({ retry: '1000' });
    const ready = await nextChecked(c);
    expect(ready.event).toBe('ready');
    expect(ready.payload).toMatchObject({ resumed: false, gap: false, app: { id: h.seed.devBot.id } });
    expect(ready.payload.board_ids).toEqual([h.seed.general.id, h.seed.random.id]);

    const board = h.seed.general.id;
    const said = await h.say(board, h.seed.alice.id, 'hi bot');
    const mine = await h.send(board, { content: 'hello' });
    await h.api('PATCH', `/boards/${board}/messages/${mine.id}`, DEV_TOKEN, { body: { content: 'hello!' } });
    await h.api('DELETE', `/boards/${board}/messages/${mine.id}`);
    const { id: interactionId } = await h.invoke({ board_id: board, user_id: h.seed.bob.id, command: 'ping' });

    const got = [];
    for (let i = 0; i < 5; i++) got.push(await nextChecked(c));
    expect(got.map((e) => e.event)).toEqual([
      'message.create',
      'message.create',
      'message.edit',
      'message.delete',
      'interaction.create',
    ]);
    expect(got.map((e) => e.id)).toEqual([1, 2, 3, 4, 5].map((n) => ready.id + n));
    expect(got[0]?.payload.message).toEqual(said);
    expect(got[1]?.payload.message).toEqual(mine);
    expect(got[2]?.payload.message).toMatchObject({ id: mine.id, content: 'hello!' });
    expect(got[3]?.payload.message).toMatchObject({ id: mine.id, content: null, deleted_at: expect.any(String) });
    expect(got[4]?.payload.interaction).toMatchObject({ id: interactionId, command: { name: 'ping' } });
    expect(got[4]?.payload.interaction.token).toHaveLength(43);
  });

  it('carries only the boards the app is installed on, and only its own interactions', async () => {
    await start();
    const other = await h.createApp('other', [h.seed.random.id]);
    const hidden = (await h.ctl('POST', '/boards', { name: 'hidden' })).json.id as string;
    await h.ctl('PUT', `/boards/${hidden}/members/${h.seed.alice.id}`);
    await h.registerCommands([{ name: 'ping', description: 'Ping' }], other.token);
    const c = await open();
    await c.nextEvent();
    await h.say(hidden, h.seed.alice.id, 'not for dev-bot');
    await h.invoke({ board_id: h.seed.random.id, user_id: h.seed.alice.id, command: 'ping' });
    const visible = await h.say(h.seed.general.id, h.seed.alice.id, 'for dev-bot');
    const next = await nextChecked(c);
    expect(next.payload.message).toEqual(visible);
  });

  it('resumes after a dropped connection with exactly the missed events, then live ones', async () => {
    await start();
    const board = h.seed.general.id;
    const first = await open();
    await first.nextEvent();
    await h.say(board, h.seed.alice.id, 'seen 1');
    const seen = await nextChecked(first);
    first.destroy();
    await first.closed;

    const missed = [];
    for (let i = 1; i <= 3; i++) missed.push(await h.say(board, h.seed.bob.id, `missed ${i}`));
    const second = await open(DEV_TOKEN, { 'last-event-id': String(seen.id) });
    const ready = await nextChecked(second);
    expect(ready).toMatchObject({ event: 'ready', id: seen.id, payload: { resumed: true, gap: false } });
    const replayed = [];
    for (let i = 0; i < 3; i++) replayed.push(await nextChecked(second));
    expect(replayed.map((e) => e.payload.message)).toEqual(missed);
    expect(replayed.map((e) => e.id)).toEqual([seen.id + 1, seen.id + 2, seen.id + 3]);
    const live = await h.say(board, h.seed.alice.id, 'live');
    expect((await nextChecked(second)).payload.message).toEqual(live);
    expect(second.pending).toBe(0);
  });

  it('replays a long backlog in order across pages', async () => {
    await start();
    for (let i = 0; i < 1200; i++) await h.say(h.seed.random.id, h.seed.bob.id, `m${i}`);
    const c = await open(DEV_TOKEN, { 'last-event-id': '0' });
    expect((await nextChecked(c)).payload.resumed).toBe(true);
    let previous = 0;
    for (let i = 0; i < 1200; i++) {
      const f = await c.nextEvent();
      expect(Number(f.id)).toBe(previous + 1);
      previous = Number(f.id);
    }
    const live = await h.say(h.seed.random.id, h.seed.bob.id, 'after the backlog');
    expect((await nextChecked(c)).payload.message).toEqual(live);
  });

  it('says gap when Last-Event-ID is older than what is retained, or unknown', async () => {
    const clock = new FakeClock();
    await start({ now: clock.now, limits: { retainedEvents: 10, retainedEventsMs: 1000 } });
    for (let i = 0; i < 30; i++) await h.say(h.seed.general.id, h.seed.alice.id, `old ${i}`);
    clock.advance(5000);
    for (let i = 0; i < 25; i++) await h.say(h.seed.general.id, h.seed.alice.id, `new ${i}`);
    const stale = await open(DEV_TOKEN, { 'last-event-id': '3' });
    const ready = await nextChecked(stale);
    expect(ready.payload).toMatchObject({ resumed: false, gap: true });
    expect(ready.id).toBe(55);
    const live = await h.say(h.seed.general.id, h.seed.bob.id, 'live');
    expect((await nextChecked(stale)).payload.message).toEqual(live);

    const future = await open(DEV_TOKEN, { 'last-event-id': '9999' });
    expect((await nextChecked(future)).payload).toMatchObject({ resumed: false, gap: true });
    const recent = await open(DEV_TOKEN, { 'last-event-id': '50' });
    expect((await nextChecked(recent)).payload).toMatchObject({ resumed: true, gap: false });
    expect(Number((await recent.nextEvent()).id)).toBe(51);
  });

  it('keeps an event for resume only while it is younger than retainedEventsMs', async () => {
    const clock = new FakeClock();
    await start({ now: clock.now, limits: { retainedEvents: 1, retainedEventsMs: 1000 } });
    await h.say(h.seed.general.id, h.seed.alice.id, 'first');
    clock.advance(999);
    // The first event is 999 ms old when the second one prunes: it stays.
    await h.say(h.seed.general.id, h.seed.alice.id, 'second');
    const young = await open(DEV_TOKEN, { 'last-event-id': '0' });
    expect((await nextChecked(young)).payload).toMatchObject({ resumed: true, gap: false });
    await h.say(h.seed.general.id, h.seed.alice.id, 'third');
    clock.advance(1000);
    // The third is exactly 1000 ms old when the fourth one prunes: it goes, and everything before it.
    await h.say(h.seed.general.id, h.seed.alice.id, 'fourth');
    const aged = await open(DEV_TOKEN, { 'last-event-id': '0' });
    expect((await nextChecked(aged)).payload).toMatchObject({ resumed: false, gap: true });
    const kept = await open(DEV_TOKEN, { 'last-event-id': '3' });
    expect((await nextChecked(kept)).payload).toMatchObject({ resumed: true, gap: false });
  });

  it('with retainedEventsMs 0, keeps events by count alone, even ones made in the same millisecond', async () => {
    const clock = new FakeClock();
    await start({ now: clock.now, limits: { retainedEvents: 1, retainedEventsMs: 0 } });
    await h.say(h.seed.general.id, h.seed.alice.id, 'one');
    await h.say(h.seed.general.id, h.seed.alice.id, 'two');
    const byCount = await open(DEV_TOKEN, { 'last-event-id': '0' });
    expect((await nextChecked(byCount)).payload).toMatchObject({ resumed: false, gap: true });
  });

  it('sends a keep-alive comment when idle', async () => {
    await start({ keepAliveMs: 30 });
    const c = await open();
    await c.nextEvent();
    let frame = await c.next();
    while (frame && frame.comment === undefined) frame = await c.next();
    expect(frame).toEqual({ comment: 'keep-alive' });
  });

  // Regression: the keep-alive ran on a fixed period and skipped its tick when anything had been
  // written since the last one, so a frame just after a tick left the stream silent for up to twice
  // the interval. The clock is vitest's, so the test counts ticks instead of measuring time; a
  // message posted after each step is the barrier: the stream's bytes are in order, so a comment
  // written during a step arrives before that message.
  it('never stays silent longer than the keep-alive interval, also right after a frame', async () => {
    const interval = 10_000;
    await start({ keepAliveMs: interval });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const c = await open();
      await c.nextEvent();
      const stepThenBarrier = async (ms: number, label: string): Promise<string[]> => {
        vi.advanceTimersByTime(ms);
        await h.say(h.seed.general.id, h.seed.alice.id, label);
        const seen: string[] = [];
        for (;;) {
          const f = await c.next();
          if (f?.comment !== undefined) seen.push(f.comment);
          else if (f?.event === 'message.create') return seen;
          else throw new Error(`unexpected frame ${JSON.stringify(f)}`);
        }
      };
      // The ready frame was the last byte: one interval later, a keep-alive.
      expect(await stepThenBarrier(interval, 'after the ready frame')).toEqual(['keep-alive']);
      // A frame just written (the barrier): nothing until one full interval after it, then a keep-alive.
      expect(await stepThenBarrier(interval - 1, 'just before the interval')).toEqual([]);
      expect(await stepThenBarrier(interval, 'one interval after that frame')).toEqual(['keep-alive']);
      // Idle: one keep-alive per interval.
      vi.advanceTimersByTime(interval);
      expect(await c.next()).toEqual({ comment: 'keep-alive' });
      vi.advanceTimersByTime(interval);
      expect(await c.next()).toEqual({ comment: 'keep-alive' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends every stream cleanly on shutdown', async () => {
    await start();
    const streams = [await open(), await open()];
    for (const s of streams) await s.nextEvent();
    await h.emu.close();
    await Promise.all(streams.map((s) => s.closed));
    expect(streams.map((s) => s.endedCleanly)).toEqual([true, true]);
  });

  it('refuses the 17th stream of an app with 429 rate_limited, and accepts one after a stream closes', async () => {
    await start();
    const open16 = [];
    for (let i = 0; i < 16; i++) open16.push(await open());
    for (const s of open16) await s.nextEvent();
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(refused.res.headers['retry-after']).toBe('1');
    expect(JSON.parse(await refused.text()).error.code).toBe('rate_limited');
    const other = await h.createApp('other');
    const othersStream = await open(other.token);
    expect(othersStream.status).toBe(200);
    open16[0]?.destroy();
    await open16[0]?.closed;
    while (h.emu.platform.gateway.count(h.seed.devBot.id) === 16) await new Promise((r) => setTimeout(r, 5));
    expect((await open()).status).toBe(200);
  });

  it('answers 401 before the stream starts for a bad token', async () => {
    await start();
    const c = await open('wrong');
    expect(c.status).toBe(401);
    expect(c.res.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(await c.text()).error.code).toBe('unauthorized');
  });

  // Regression: a HEAD opened a stream that sent nothing and never ended, holding one of the app's
  // 16 slots (and the control API's activity stream had the same flaw).
  it('answers HEAD with the stream’s head and opens no stream, as the activity stream does', async () => {
    await start();
    const head = (url: string, key: string) =>
      fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${key}` } }).then((r) => [
        r.status,
        r.headers.get('content-type'),
      ]);
    expect(await head(gatewayUrl, DEV_TOKEN)).toEqual([200, 'text/event-stream']);
    expect(h.emu.platform.gateway.count(h.seed.devBot.id)).toBe(0);
    const events = `${h.emu.urls?.controlUrl}/events`;
    expect(await head(events, ADMIN_KEY)).toEqual([200, 'text/event-stream']);
  });

  it('drops a consumer that stopped reading without holding back the others', async () => {
    await start({ limits: { streamBufferBytes: 64 * 1024 } });
    const slow = await open();
    await slow.nextEvent();
    slow.res.pause();
    const fast = await open();
    await fast.nextEvent();
    const appId = h.seed.devBot.id;
    const content = 'x'.repeat(4000);
    let sent = 0;
    let received = 0;
    // Send until the slow stream is dropped; the fast one must have every event meanwhile.
    while (h.emu.platform.gateway.count(appId) === 2 && sent < 20_000) {
      await h.say(h.seed.general.id, h.seed.alice.id, content);
      sent++;
      while (fast.pending > 0) {
        await fast.nextEvent();
        received++;
      }
    }
    expect(h.emu.platform.gateway.count(appId)).toBe(1);
    while (received < sent) {
      await fast.nextEvent();
      received++;
    }
    expect(received).toBe(sent);
    const after = await h.say(h.seed.general.id, h.seed.alice.id, 'still live');
    expect((await nextChecked(fast)).payload.message).toEqual(after);
  });
});
