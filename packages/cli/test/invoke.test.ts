import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@boardbot/cli';
import { vacantPort } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testIo } from './support/test-io.js';

// `boardbot invoke` against an emulator given with --url and --key (no `boardbot dev` running): the
// refusals it reports through the control API client. Its happy path runs in dev.test.ts.

let emu: SeededEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startSeededEmulator();
  dir = mkdtempSync(join(tmpdir(), 'boardbot-invoke-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('boardbot invoke', () => {
  it('reports a refused admin key with the platform code (exit code 1), never the key', async () => {
    const io = testIo(dir);
    const args = ['invoke', 'ping', '--url', emu.urls.url, '--key', 'not-the-admin-key'];
    expect(await runCli(['node', 'boardbot', ...args], io)).toBe(1);
    expect(io.errors.join('\n')).toMatch(/BOARDBOT_CLI_INVOCATION.*GET \/state answered 401 unauthorized/);
    expect(io.text()).not.toContain('not-the-admin-key');
  });

  it('says the emulator cannot be reached when nothing listens at --url (exit code 1)', async () => {
    const url = `http://127.0.0.1:${await vacantPort()}/_emulator/v1`;
    const io = testIo(dir);
    expect(await runCli(['node', 'boardbot', 'invoke', 'ping', '--url', url, '--key', 'k'], io)).toBe(1);
    expect(io.errors.join('\n')).toContain(`BOARDBOT_CLI_INVOCATION: The emulator at ${url} cannot be reached`);
  });
});
