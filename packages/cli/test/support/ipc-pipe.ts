import { EventEmitter } from 'node:events';
import { GatewayRelay, isRelayMessage, type RelayChannel, type ToBot, type ToParent } from '@boardbot/cli/internal';
import { type BotEvent, MemoryPositionStore, type PositionStore } from '@boardbot/core';
import type { SeededEmulator } from '@boardbot/test-support/emulator';
import { onTestFinished } from 'vitest';

/**
 * The two ends of a bot process's IPC channel to `boardbot dev`, in one process: what is sent crosses
 * as JSON (the channel's serialization) on a later turn of the event loop, as it would between two
 * processes; what the parent sends once the child stopped listening is lost, as it is on a real
 * channel. The parent's end records every event number it fed.
 */
export interface IpcPipe {
  /** The bot's end, for its `IpcSource`. */
  child: RelayChannel;
  /** The parent's end: the relay's target. */
  parent: { send(message: ToBot): void };
  /**
   * The events fed through this pipe (0, a copy of `ready`, left out), in order: each number, and
   * its message's text (else the event's name).
   */
  fed: Array<{ n: number; what: string }>;
  /** Settles when the bot asks to be fed. */
  wantsFeeding: Promise<void>;
  /** Settles when the bot says its source closed (every acknowledgement it sends was sent). */
  closed: Promise<void>;
}

function describe(event: BotEvent): string {
  if (!event.unknown && event.name === 'message.create') return event.data.message.content ?? '';
  return event.name;
}

/**
 * A pipe whose acknowledgements go to `relay`, as `boardbot dev`'s bot processes' do.
 * @param relay - the relay that feeds through it
 */
export function ipcPipe(relay: GatewayRelay): IpcPipe {
  const toChild = new EventEmitter();
  const fed: IpcPipe['fed'] = [];
  let fedAsked: () => void = () => {};
  let closedSaid: () => void = () => {};
  const wantsFeeding = new Promise<void>((resolve) => {
    fedAsked = resolve;
  });
  const closed = new Promise<void>((resolve) => {
    closedSaid = resolve;
  });
  const heard = (message: unknown) => {
    if (!isRelayMessage<ToParent>(message)) return;
    if (message.type === 'boardbot:fed') fedAsked();
    else if (message.type === 'boardbot:done') relay.done(message.n);
    else if (message.type === 'boardbot:read-back') relay.readBackDone(message.board, message.seq);
    else if (message.type === 'boardbot:closed') closedSaid();
  };
  const cross = <T>(message: T): T => JSON.parse(JSON.stringify(message)) as T;
  return {
    child: {
      send(message, callback) {
        const copy = cross(message);
        setImmediate(() => {
          heard(copy);
          callback(null);
        });
        return true;
      },
      on: (event, listener) => toChild.on(event, listener),
      off: (event, listener) => toChild.off(event, listener),
    },
    parent: {
      send(message) {
        if (message.type === 'boardbot:event' && message.n > 0)
          fed.push({ n: message.n, what: describe(message.event) });
        const copy = cross(message);
        setImmediate(() => toChild.emit('message', copy));
      },
    },
    fed,
    wantsFeeding,
    closed,
  };
}

/**
 * The dev-bot app's gateway connection as `boardbot dev` holds it, on `emulator`, with the resume
 * point in memory; closed when the test finishes.
 * @param emulator - a seeded emulator
 * @param logs - where the relay's lines go
 * @param options - `maxPending` (events held past which it stops reading), `positions` (where the
 *   resume point is kept: a new memory store)
 */
export function relayForTest(
  emulator: SeededEmulator,
  logs: string[],
  { maxPending, positions = new MemoryPositionStore() }: { maxPending?: number; positions?: PositionStore } = {},
): GatewayRelay {
  const relay = new GatewayRelay({
    token: emulator.token,
    apiUrl: emulator.apiUrl,
    appId: emulator.seed.devBot.id,
    positions,
    log: (line) => logs.push(line),
    out: (line) => logs.push(line),
    ...(maxPending !== undefined && { maxPending }),
  });
  onTestFinished(() => relay.close());
  return relay;
}
