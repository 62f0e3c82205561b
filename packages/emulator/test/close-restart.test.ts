import { createEmulator, type Emulator } from '@boardbot/emulator';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';

// An emulator restarted in-process on the same port, with one keep-alive client held across the
// restarts (as a test's ControlClient on the global fetch is): once close() has resolved, the old
// server has no connection left, so the client never sends a request down a socket of the old one.

const ADMIN_KEY = 'restart-admin-key';
const RESTARTS = 50;

/** How many connections the server of `emu` still has open. */
function openConnections(emu: Emulator): Promise<number> {
  return new Promise((resolve, reject) =>
    emu.app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))),
  );
}

const agent = new Agent({ keepAliveTimeout: 60_000, connections: 4 });
afterAll(() => agent.close());

describe('an emulator restarted on the same port', () => {
  it('closes every connection before close() resolves, so a keep-alive client gets every answer', async () => {
    let port = 0;
    const failures: string[] = [];
    for (let round = 0; round < RESTARTS; round++) {
      const emu = await createEmulator({ db: ':memory:', logger: false, adminKey: ADMIN_KEY });
      const urls = await emu.listen({ host: '127.0.0.1', port });
      port = Number(new URL(urls.url).port);
      const { origin, pathname } = new URL(urls.controlUrl);
      // The control API's first POST after the restart, then a read, both on the kept-alive pool.
      try {
        const created = await agent.request({
          origin,
          path: `${pathname}/boards`,
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `round-${round}` }),
        });
        expect(created.statusCode).toBe(201);
        await created.body.json();
        const state = await agent.request({
          origin,
          path: `${pathname}/state`,
          method: 'GET',
          headers: { authorization: `Bearer ${ADMIN_KEY}` },
        });
        expect(state.statusCode).toBe(200);
        await state.body.json();
      } catch (err) {
        failures.push(`round ${round}: ${(err as Error).name}: ${(err as Error).message}`);
      }
      await emu.close();
      expect(await openConnections(emu)).toBe(0);
    }
    expect(failures).toEqual([]);
  });
});
