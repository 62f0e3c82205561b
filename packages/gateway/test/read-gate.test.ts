import { eventually, messageFrame, openStream, readyFrame } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { record, server, testClient } from './support/helpers.js';

describe('readGate: the caller pauses the stream', () => {
  it('reads nothing while the gate holds, does not count the pause as a dead socket, and reads on after', async () => {
    let write: (frame: string) => void = () => {};
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1) + messageFrame(2));
      write = (frame) => res.write(frame);
    });
    // A clock the test moves: the watchdog's timers are only run when the test says.
    let now = 0;
    let nextTimer = 0;
    const timers = new Map<number, () => void>();
    let gate: Promise<void> | undefined;
    let open = () => {};
    let waits = 0;
    const gw = testClient(s.baseUrl, {
      keepAliveTimeoutMs: 1_000,
      now: () => now,
      setTimeout: (fn) => {
        timers.set(++nextTimer, fn);
        return nextTimer;
      },
      clearTimeout: (handle) => timers.delete(handle as number),
      readGate: () => {
        if (gate) waits++;
        return gate;
      },
    });
    const r = record(gw);
    gw.on('message.create', (_data, { id }) => {
      if (id !== '2') return;
      gate = new Promise<void>((resolve) => {
        open = () => {
          gate = undefined;
          resolve();
        };
      });
    });
    await gw.connect();
    await eventually(() => expect(r.ids()).toEqual(['R1', '2']));
    // The read already waiting for the socket completes; the gate holds the next one.
    write(messageFrame(3));
    await eventually(() => expect(waits).toBeGreaterThan(0));
    expect(r.ids()).toEqual(['R1', '2', '3']);
    write(messageFrame(4));
    // A pause far longer than the keep-alive timeout: every timer still set runs.
    now += 60_000;
    for (const [id, fn] of [...timers]) {
      timers.delete(id);
      fn();
    }
    expect(r.reconnects).toEqual([]);
    expect(r.ids()).toEqual(['R1', '2', '3']);
    open();
    await eventually(() => expect(r.ids()).toEqual(['R1', '2', '3', '4']));
    expect(r.reconnects).toEqual([]);
    // Reading again, the watchdog is armed again.
    expect(timers.size).toBeGreaterThan(0);
  });

  it('closes while the gate holds: the waiting read lets go', async () => {
    let write: (frame: string) => void = () => {};
    const s = await server((_req, res) => {
      openStream(res);
      res.write(readyFrame(1) + messageFrame(2));
      write = (frame) => res.write(frame);
    });
    let waits = 0;
    const never = new Promise<void>(() => {});
    let held = false;
    const gw = testClient(s.baseUrl, {
      readGate: () => {
        if (!held) return undefined;
        waits++;
        return never;
      },
    });
    gw.on('message.create', () => {
      held = true;
    });
    await gw.connect();
    await eventually(() => expect(held).toBe(true));
    write(messageFrame(3));
    await eventually(() => expect(waits).toBeGreaterThan(0));
    await gw.close();
    expect(gw.state).toBe('closed');
  });
});
