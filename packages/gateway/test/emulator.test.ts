import type { GatewayDispatch, GatewayFetch } from '@boardbot/gateway';
import { eventually, startTcpFaultProxy } from '@boardbot/test-support';
import { fetch } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { onCleanup, record, startEmulator, tempDb, testClient } from './support/helpers.js';

const contentOf = (e: GatewayDispatch) =>
  !e.unknown && (e.name === 'message.create' || e.name === 'message.edit') ? e.data.message.content : undefined;

describe('against the emulator', () => {
  it('delivers every event kind with its payload', async () => {
    const em = await startEmulator();
    const { general, random, alice, bob, devBot } = em.seed;
    await em.app('PUT', '/app/commands', [
      {
        name: 'roll',
        description: 'Roll a die',
        options: [
          { name: 'sides', description: 'Sides', type: 'integer', required: false, min_value: 2, max_value: 100 },
        ],
      },
    ]);
    const gw = testClient(em.apiUrl);
    const r = record(gw);
    const ready = await gw.connect();
    expect(ready).toMatchObject({ type: 'ready', resumed: false, app: { id: devBot.id, name: 'dev-bot' } });
    expect([...ready.board_ids].sort()).toEqual([general.id, random.id].sort());

    const posted = await em.control.postMessage(general.id, { user_id: alice.id, content: 'hello from alice' });
    const edited = await em.control.editMessage(general.id, posted.id, 'edited');
    await em.control.deleteMessage(general.id, posted.id);
    const hook = await em.control.postMessage(random.id, { webhook_name: 'ci', content: 'build ok' });
    const invoked = await em.control.invoke({
      board_id: random.id,
      user_id: bob.id,
      command: 'roll',
      options: { sides: 20 },
    });

    await eventually(() => expect(r.events.map((e) => e.name)).toHaveLength(6));
    const [, create, edit, del, webhook, interaction] = r.events;
    expect(r.events.map((e) => e.name)).toEqual([
      'ready',
      'message.create',
      'message.edit',
      'message.delete',
      'message.create',
      'interaction.create',
    ]);
    expect(create?.data).toEqual({ type: 'message.create', message: posted });
    expect(edit?.data).toEqual({ type: 'message.edit', message: edited });
    expect(del?.data).toMatchObject({
      type: 'message.delete',
      message: { id: posted.id, content: null, embeds: null, media: null, deleted_at: expect.any(String) },
    });
    expect(webhook?.data).toEqual({ type: 'message.create', message: hook });
    expect(hook).toMatchObject({ author: null, webhook_name: 'ci' });
    expect(interaction?.data).toMatchObject({
      type: 'interaction.create',
      interaction: { ...invoked, token: expect.any(String) },
    });
    // Ids strictly increase, and the client's resume point is the last one.
    const ids = r.events.slice(1).map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(gw.lastEventId).toBe(interaction?.id);
    expect(r.reconnects).toEqual([]);
  });

  it('resumes after the emulator restarts on the same database file and port', async () => {
    const db = tempDb();
    const first = await startEmulator({ db });
    const { general, alice } = first.seed;
    // The client's reconnects wait at this gate, so the test decides when they reach the new emulator.
    let gate: Promise<void> = Promise.resolve();
    let open: () => void = () => {};
    const gated: GatewayFetch = async (url, init) => {
      await gate;
      return fetch(url, init);
    };
    const gw = testClient(first.apiUrl, { fetch: gated });
    const r = record(gw);
    const readies: Array<{ resumed: boolean; gap: boolean | undefined }> = [];
    gw.on('ready', (e) => readies.push({ resumed: e.resumed, gap: e.gap }));
    await gw.connect();
    await first.control.postMessage(general.id, { user_id: alice.id, content: 'one' });
    await first.control.postMessage(general.id, { user_id: alice.id, content: 'two' });
    await eventually(() => expect(r.events).toHaveLength(3));
    const beforeRestart = gw.lastEventId;

    gate = new Promise((resolve) => {
      open = resolve;
    });
    await first.emu.close();
    await eventually(() => expect(gw.state).not.toBe('open'));
    const second = await startEmulator({ db }, first.port);
    await second.control.postMessage(general.id, { user_id: alice.id, content: 'three' });
    await second.control.postMessage(general.id, { user_id: alice.id, content: 'four' });
    open();
    await eventually(() => expect(r.events.map(contentOf).filter(Boolean)).toEqual(['one', 'two', 'three', 'four']));
    await second.control.postMessage(general.id, { user_id: alice.id, content: 'five' });
    await eventually(() => expect(r.events.map(contentOf).filter(Boolean)).toHaveLength(5));

    expect(r.events.map(contentOf).filter(Boolean)).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(readies).toEqual([
      { resumed: false, gap: false },
      { resumed: true, gap: false },
    ]);
    expect(r.reconnects[0]?.reason.code).toBe('BOARDBOT_GATEWAY_STREAM_ENDED');
    expect(Number(gw.lastEventId)).toBeGreaterThan(Number(beforeRestart));
  });

  it('reports a gap after the emulator lost its history (a new in-memory emulator on the port)', async () => {
    const first = await startEmulator();
    const gw = testClient(first.apiUrl);
    const r = record(gw);
    const gaps: Array<string | undefined> = [];
    gw.on('gap', (g) => gaps.push(g.lastEventId));
    await gw.connect();
    for (const word of ['a', 'b', 'c'])
      await first.control.postMessage(first.seed.general.id, { user_id: first.seed.alice.id, content: word });
    await eventually(() => expect(r.events).toHaveLength(4));
    const resumeFrom = gw.lastEventId;
    await first.emu.close();
    const second = await startEmulator({}, first.port);
    await eventually(() => expect(gaps).toEqual([resumeFrom]));
    await second.control.postMessage(second.seed.general.id, {
      user_id: second.seed.alice.id,
      content: 'after the gap',
    });
    await eventually(() => expect(r.events.map(contentOf).filter(Boolean)).toEqual(['a', 'b', 'c', 'after the gap']));
  });

  it('refuses a wrong token with a fatal 401, once', async () => {
    const em = await startEmulator();
    const gw = testClient(em.apiUrl, { token: 'not-the-token' });
    const r = record(gw);
    await expect(gw.connect()).rejects.toMatchObject({
      code: 'BOARDBOT_GATEWAY_UNAUTHORIZED',
      request: { status: 401, apiCode: 'unauthorized' },
    });
    expect(r.reconnects).toEqual([]);
    expect(gw.state).toBe('closed');
  });

  it('loses nothing behind a proxy that cuts mid-frame and then stalls', async () => {
    // Keep-alives every 50 ms keep a healthy stream well inside the client's 300 ms watchdog.
    const em = await startEmulator({ keepAliveMs: 50 });
    const { general, alice } = em.seed;
    // Connection 0 is cut 700 bytes in (past the ready frame, inside the first message frame);
    // connection 1 stalls after 900 bytes without a FIN, which only the watchdog can notice;
    // connection 2 is faithful.
    const proxy = await startTcpFaultProxy({ port: em.port }, (n) =>
      n === 0 ? { cutAfterBytes: 700 } : n === 1 ? { stallAfterBytes: 900 } : undefined,
    );
    onCleanup(() => proxy.close());
    const gw = testClient(`${proxy.origin}/api/v1`, { keepAliveTimeoutMs: 300 });
    const r = record(gw);
    await gw.connect();
    const words = Array.from({ length: 12 }, (_, i) => `word ${i}`);
    for (const w of words) await em.control.postMessage(general.id, { user_id: alice.id, content: w });
    await vi.waitFor(() => expect(r.events.map(contentOf).filter(Boolean)).toEqual(words), { timeout: 15_000 });
    expect(r.reconnects.slice(0, 2).map((x) => x.reason.code)).toEqual([
      'BOARDBOT_GATEWAY_NETWORK',
      'BOARDBOT_GATEWAY_KEEPALIVE_TIMEOUT',
    ]);
    expect(proxy.cuts).toBe(1);
  });
});
