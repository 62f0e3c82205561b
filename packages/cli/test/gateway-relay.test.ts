import { DEFAULT_GATEWAY_RELAY_OPTIONS, type ToBot } from '@boardbot/cli/internal';
import { MemoryPositionStore } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { eventuallyValue } from '@boardbot/test-support';
import { startSeededEmulator } from '@boardbot/test-support/emulator';
import { describe, expect, it, onTestFinished } from 'vitest';
import { POLL } from './support/control.js';
import { relayForTest } from './support/ipc-pipe.js';

const BOUND = DEFAULT_GATEWAY_RELAY_OPTIONS.maxPending;

describe("boardbot dev's gateway connection (the relay)", () => {
  it(`stops reading the gateway when ${BOUND} events wait, and reads on once the bot is down to half: none lost, none twice`, async () => {
    const emulator = await startSeededEmulator();
    onTestFinished(() => emulator.close());
    const { general, alice } = emulator.seed;
    const logs: string[] = [];
    const relay = relayForTest(emulator, logs);
    await relay.connect();
    const posted: Message[] = [];
    const post = async (count: number) => {
      for (let i = 0; i < count; i++) {
        posted.push(
          await emulator.control.postMessage(general.id, { user_id: alice.id, content: `m ${posted.length}` }),
        );
      }
    };
    const logged = (start: string) =>
      eventuallyValue(
        async () => logs.find((line) => line.startsWith(start)),
        (line) => line !== undefined,
        { ...POLL, timeoutMs: 120_000 },
      );

    // No bot is fed: nothing is acknowledged. With the connection's `ready`, the bound is reached.
    await post(BOUND);
    expect(await logged('The bot has ')).toMatch(
      new RegExp(`^The bot has ${BOUND} events to handle: dev stops reading`),
    );
    const atPause = relay.pending;
    expect(atPause).toBeGreaterThanOrEqual(BOUND);
    // Posted while it holds the bound: none is read (the platform keeps them).
    await post(500);
    await emulator.control.state();
    expect(relay.pending).toBe(atPause);

    // A bot that acknowledges each event it is fed drains the line: at half the bound the relay
    // reads on, and it is fed every event once, in the order the gateway sent them.
    const fed: ToBot[] = [];
    relay.feed({
      send(message) {
        fed.push(message);
        if (message.type === 'boardbot:event' && message.n > 0) setImmediate(() => relay.done(message.n));
      },
    });
    expect(await logged('The bot is down to ')).toBe(
      `The bot is down to ${BOUND / 2} events to handle: dev reads the gateway again.`,
    );
    const events = () => fed.flatMap((m) => (m.type === 'boardbot:event' && m.n > 0 ? [m] : []));
    await eventuallyValue(
      async () => events().length,
      (n) => n === posted.length + 1,
      { ...POLL, timeoutMs: 120_000 },
    );
    await eventuallyValue(
      async () => relay.pending,
      (pending) => pending === 0,
      POLL,
    );
    const numbers = events().map((m) => (m.type === 'boardbot:event' ? m.n : 0));
    expect(numbers).toEqual(Array.from({ length: posted.length + 1 }, (_, i) => i + 1));
    const ids = events().flatMap((m) =>
      m.type === 'boardbot:event' && !m.event.unknown && m.event.name === 'message.create'
        ? [m.event.data.message.id]
        : [],
    );
    expect(ids).toEqual(posted.map((m) => m.id));
  }, 300_000);

  it('moves the resume point past an event once it and every event before it are acknowledged, in any order', async () => {
    const emulator = await startSeededEmulator();
    onTestFinished(() => emulator.close());
    const { general, alice } = emulator.seed;
    const positions = new MemoryPositionStore();
    const key = { apiUrl: emulator.apiUrl, appId: emulator.seed.devBot.id };
    const relay = relayForTest(emulator, [], { positions });
    await relay.connect();
    const posted: Message[] = [];
    for (let i = 0; i < 8; i++) {
      posted.push(await emulator.control.postMessage(general.id, { user_id: alice.id, content: `m ${i}` }));
    }
    // Fed to nobody, then to a bot that acknowledges nothing by itself: the connection's `ready` is 1,
    // the messages 2 to 9.
    await eventuallyValue(
      async () => relay.pending,
      (pending) => pending === 9,
      POLL,
    );
    const fedTo = (fed: ToBot[]) => ({ send: (message: ToBot) => fed.push(message) });
    const numbers = (fed: ToBot[]) => fed.flatMap((m) => (m.type === 'boardbot:event' && m.n > 0 ? [m.n] : []));
    const first: ToBot[] = [];
    relay.feed(fedTo(first));
    expect(numbers(first)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const pendingAfter = (n: number) => {
      relay.done(n);
      return relay.pending;
    };

    // 3 first: held behind 1 and 2. An unknown number changes nothing; 1, then 2, pass 1 to 3.
    expect([3, 42, 1, 2, 1].map(pendingAfter)).toEqual([9, 9, 8, 6, 6]);
    const savedSeq = async () => (await positions.load(key))?.boards[general.id];
    await eventuallyValue(savedSeq, (seq) => seq === posted[1]?.seq, POLL);
    // 9, 7 and 8 are held behind 4; the next bot is given only what was not acknowledged, in order.
    expect([9, 7, 8].map(pendingAfter)).toEqual([6, 6, 6]);
    const next: ToBot[] = [];
    relay.feed(fedTo(next));
    expect(numbers(next)).toEqual([4, 5, 6]);
    expect([5, 4, 6].map(pendingAfter)).toEqual([6, 4, 0]);

    await relay.close();
    const last = first.at(-1);
    expect(await positions.load(key)).toMatchObject({
      eventId: last?.type === 'boardbot:event' ? last.event.id : 'none',
      boards: { [general.id]: posted[7]?.seq },
    });
  }, 60_000);
});
