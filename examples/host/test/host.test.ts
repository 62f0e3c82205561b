import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type Host } from '@boardbot/core';
import { createEmulator, type Emulator } from '@boardbot/emulator';
import { type Board, ControlClient } from '@boardbot/emulator/control';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamApps } from '../src/apps.js';

let emu: Emulator;
let control: ControlClient;
let host: Host;
const boards: Record<string, { app: string; board: Board }> = {};
let alice: string;
const stateDir = mkdtempSync(join(tmpdir(), 'boardbot-host-example-'));

beforeAll(async () => {
  emu = await createEmulator({ db: ':memory:', seed: true, logger: false });
  const urls = await emu.listen({ host: '127.0.0.1', port: 0 });
  control = new ControlClient({ url: urls.controlUrl, adminKey: emu.adminKey });
  const state = await control.state();
  alice = state.users.find((u) => u.username === 'alice')?.id as string;
  // Each team's app on its own board; the tokens go where main.ts reads them: the environment.
  for (const [id, name, variable] of [
    ['sales', 'general', 'SALES_BOT_TOKEN'],
    ['support', 'random', 'SUPPORT_BOT_TOKEN'],
  ] as const) {
    const created = await control.createApp({ name: `${id}-bot` });
    const board = state.boards.find((b) => b.name === name) as Board;
    await control.install(created.app.id, board.id);
    process.env[variable] = created.token;
    boards[id] = { app: created.app.id, board };
  }
  host = createHost(
    { logger: false, handleSignals: false, health: { port: 0 }, stateDir },
    teamApps({ apiUrl: urls.apiUrl }),
  );
  await host.start();
});

afterAll(async () => {
  await host?.stop();
  await emu?.close();
  delete process.env.SALES_BOT_TOKEN;
  delete process.env.SUPPORT_BOT_TOKEN;
  rmSync(stateDir, { recursive: true, force: true });
});

async function ask(team: string, command: string): Promise<string | null | undefined> {
  const { app, board } = boards[team] as { app: string; board: Board };
  const body = { board_id: board.id, user_id: alice, command, options: {}, app_id: app };
  const view = await control.invokeAndWait(body, { answers: 1 });
  return view.answers?.[0]?.content;
}

describe('two apps in one process', () => {
  it('answers each app on its own board, as its own app', async () => {
    expect(await ask('sales', 'hello')).toBe('Hello from sales-bot');
    expect(await ask('support', 'hello')).toBe('Hello from support-bot');
    expect(await ask('support', 'ticket')).toBe(`Ticket opened for <@${alice}>`);
  });

  it('says on one /readyz that both are ready', async () => {
    const res = await fetch(`${host.healthUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ready: true, checks: { sales: true, support: true } });
  });
});
