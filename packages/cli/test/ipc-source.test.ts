import { type GatewayRelay, IpcSource } from '@boardbot/cli/internal';
import { type Bot, createBot, MemoryPositionStore, type MessageContext, OnMessage } from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { silentLogger } from '@boardbot/protocol';
import { eventuallyValue } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { describe, expect, it, onTestFinished } from 'vitest';
import { POLL } from './support/control.js';
import { type IpcPipe, ipcPipe, relayForTest } from './support/ipc-pipe.js';

/** The bot process that is replaced: it never finishes `m hold` (its stop gives up on it). */
class Old {
  @OnMessage(/^m /)
  async echo(ctx: MessageContext) {
    if (ctx.message.content === 'm hold') await new Promise(() => {});
    return `old ${ctx.message.content}`;
  }
}

/** Handles `q …` messages without answering (an answer would move the resume point by itself). */
class Quiet {
  static seen: string[] = [];
  @OnMessage(/^q /)
  note(ctx: MessageContext) {
    Quiet.seen.push(ctx.message.content ?? '');
  }
}

/** The bot process that replaces it. */
class New {
  @OnMessage(/^m /)
  echo(ctx: MessageContext) {
    return `new ${ctx.message.content}`;
  }
}

/** A bot fed through `pipe`, as `boardbot start --dev-relay` makes it; stopped when the test finishes. */
function fedBot(emulator: SeededEmulator, handler: new () => object, pipe: IpcPipe): Bot {
  const bot = createBot({
    token: emulator.token,
    apiUrl: emulator.apiUrl,
    logger: silentLogger,
    handleSignals: false,
    commandSync: 'off',
    position: new MemoryPositionStore(),
    handlers: [handler],
    source: new IpcSource(pipe.child),
    // Its stop gives up on `m hold` soon (what it gave up on is not acknowledged).
    shutdownTimeoutMs: 300,
  });
  onTestFinished(async () => {
    await bot.stop();
  });
  return bot;
}

/** The first bot process (its handlers: {@link Old} unless told), fed once it asks; the relay connects then. */
async function firstProcess(
  emulator: SeededEmulator,
  relay: GatewayRelay,
  handler: new () => object = Old,
): Promise<IpcPipe & { bot: Bot }> {
  const pipe = ipcPipe(relay);
  const bot = fedBot(emulator, handler, pipe);
  const started = bot.start();
  await pipe.wantsFeeding;
  await relay.connect();
  relay.feed(pipe.parent);
  await started;
  return { ...pipe, bot };
}

/**
 * Replaces a bot process by a new one (its handlers: {@link New}) as dev does: the new process asks to
 * be fed; the old one is fed no more, stops, and says its source closed; then the new one is fed.
 */
async function replace(emulator: SeededEmulator, relay: GatewayRelay, old: IpcPipe & { bot: Bot }): Promise<IpcPipe> {
  const pipe = ipcPipe(relay);
  const bot = fedBot(emulator, New, pipe);
  const started = bot.start();
  await pipe.wantsFeeding;
  relay.unfeed();
  const stopped = old.bot.stop();
  await old.closed;
  relay.feed(pipe.parent);
  await started;
  await stopped;
  return pipe;
}

describe('the bot process fed by boardbot dev (IpcSource and the relay)', () => {
  it('gives the next process what the replaced one had not acknowledged, from the first such event: none lost, none twice', async () => {
    const emulator = await startSeededEmulator();
    onTestFinished(() => emulator.close());
    const { general, random, alice } = emulator.seed;
    const logs: string[] = [];
    const relay = relayForTest(emulator, logs);
    const post = (board: string, content: string) =>
      emulator.control.postMessage(board, { user_id: alice.id, content });
    const answers = async () => {
      const all = [...(await emulator.allMessages(general.id)), ...(await emulator.allMessages(random.id))];
      return all.filter((m) => m.author !== alice.id);
    };
    const answered = (posted: Message[]) =>
      eventuallyValue(answers, (found) => posted.every((p) => found.some((a) => a.reply_to === p.id)), POLL);

    // The first process: fed once it asks.
    const one = await firstProcess(emulator, relay);
    const before = [await post(general.id, 'm 0'), await post(random.id, 'm r0'), await post(general.id, 'm 1')];
    await answered(before);

    // `m hold` never finishes; `m 2` and `m 3` wait behind it on their board; `m r1` is handled.
    const hold = await post(general.id, 'm hold');
    const waiting = [await post(general.id, 'm 2'), await post(random.id, 'm r1'), await post(general.id, 'm 3')];
    await answered([waiting[1] as Message]);

    // The replacement, as dev does it (giving up on `m hold`).
    const two = await replace(emulator, relay, one);
    const after = [await post(general.id, 'm 4'), await post(random.id, 'm r2')];
    const all = [...before, hold, ...waiting, ...after];
    await answered(all);
    await eventuallyValue(
      async () => relay.pending,
      (pending) => pending === 0,
      POLL,
    );

    // The new process was fed from the first event the old one had not acknowledged (`m hold`), and
    // of those it had been fed only the unacknowledged ones (`m 2`, `m 3`; not `m r1` nor the old
    // answers' own events, acknowledged meanwhile), then the live ones.
    const held = one.fed.find((e) => e.what === 'm hold');
    expect(two.fed[0]).toEqual(held);
    expect(two.fed.every((e) => e.n >= (held?.n ?? 0))).toBe(true);
    const fedToBoth = two.fed.filter((e) => one.fed.some((o) => o.n === e.n));
    expect(fedToBoth.map((e) => e.what)).toEqual(['m hold', 'm 2', 'm 3']);
    expect(two.fed.map((e) => e.what).filter((w) => w.startsWith('m '))).toEqual([
      'm hold',
      'm 2',
      'm 3',
      'm 4',
      'm r2',
    ]);
    // Each message answered once, by the process that finished it.
    const found = await answers();
    expect(found.map((m) => m.reply_to).sort()).toEqual(all.map((m) => m.id).sort());
    const by = (m: Message) => found.find((a) => a.reply_to === m.id)?.content;
    expect([...before, waiting[1] as Message].map(by)).toEqual(['old m 0', 'old m r0', 'old m 1', 'old m r1']);
    expect([hold, waiting[0] as Message, waiting[2] as Message, ...after].map(by)).toEqual([
      'new m hold',
      'new m 2',
      'new m 3',
      'new m 4',
      'new m r2',
    ]);
  }, 60_000);

  it('redoes a gap read-back the replaced process had not finished, without answering again what it had', async () => {
    const emulator = await startSeededEmulator();
    onTestFinished(() => emulator.close());
    const { general, alice } = emulator.seed;
    const post = (content: string) => emulator.control.postMessage(general.id, { user_id: alice.id, content });
    const answers = async () => (await emulator.allMessages(general.id)).filter((m) => m.author !== alice.id);

    // Missed while no bot ran: `m 0` was handled, the rest was not. The stored resume point names an
    // event the platform does not have, so the connection opens with a gap, and the bot reads back.
    const missed = [await post('m 0'), await post('m 1'), await post('m hold'), await post('m 3')];
    const positions = new MemoryPositionStore();
    const key = { apiUrl: emulator.apiUrl, appId: emulator.seed.devBot.id };
    await positions.save(key, { eventId: '999999', boards: { [general.id]: (missed[0] as Message).seq }, savedAt: 0 });
    const logs: string[] = [];
    const relay = relayForTest(emulator, logs, { positions });

    const one = await firstProcess(emulator, relay);
    // The read-back handles `m 1`, then holds on `m hold`.
    await eventuallyValue(answers, (found) => found.some((a) => a.content === 'old m 1'), POLL);

    await replace(emulator, relay, one);
    const live = await post('m 4');

    const asked = [...missed.slice(1), live];
    await eventuallyValue(answers, (found) => asked.every((p) => found.some((a) => a.reply_to === p.id)), POLL);
    await eventuallyValue(
      async () => relay.pending,
      (pending) => pending === 0,
      POLL,
    );
    const found = await answers();
    // `m 1` once (the old process's), the rest by the new one; `m 0` was handled before.
    expect(found.map((a) => a.content).sort()).toEqual(['new m 3', 'new m 4', 'new m hold', 'old m 1']);
  }, 60_000);

  it('moves the resume point past the messages a gap read back, once they are handled', async () => {
    const emulator = await startSeededEmulator();
    onTestFinished(() => emulator.close());
    const { general, alice } = emulator.seed;
    const missed = [];
    for (const content of ['q 0', 'q 1', 'q 2']) {
      missed.push(await emulator.control.postMessage(general.id, { user_id: alice.id, content }));
    }
    const [handled, , last] = missed as [Message, Message, Message];
    const positions = new MemoryPositionStore();
    const key = { apiUrl: emulator.apiUrl, appId: emulator.seed.devBot.id };
    await positions.save(key, { eventId: '999999', boards: { [general.id]: handled.seq }, savedAt: 0 });
    const relay = relayForTest(emulator, [], { positions });
    await firstProcess(emulator, relay, Quiet);

    // The gap's `ready` is acknowledged once `q 1` and `q 2` were handled; the resume point then
    // says so, so a later gap does not read them back again.
    await eventuallyValue(
      async () => relay.pending,
      (pending) => pending === 0,
      POLL,
    );
    expect(Quiet.seen).toEqual(['q 1', 'q 2']);
    await relay.close();
    expect((await positions.load(key))?.boards[general.id]).toBe(last.seq);
  }, 60_000);
});
