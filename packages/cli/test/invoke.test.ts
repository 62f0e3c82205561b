import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@boardbot/cli';
import { Command, type CommandContext, createBot } from '@boardbot/core';
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
    expect(io.errors).toEqual([
      `error BOARDBOT_CLI_INVOCATION: The emulator at ${emu.urls.url} refused the admin key (401 unauthorized). ` +
        "Fix: pass the running emulator's key with --key or BOARDBOT_ADMIN_KEY; `boardbot dev` finds its own in " +
        '.boardbot/dev.json.',
    ]);
    expect(io.text()).not.toContain('not-the-admin-key');
  });

  // Issue 30: the message starts with the person's command, not the control request, and says each problem once.
  it('words a refused invocation from the command typed, each problem once', async () => {
    await emu.app('PUT', '/app/commands', [
      {
        name: 'roll',
        description: 'Rolls a die',
        options: [
          { type: 'integer', name: 'sides', description: 'Sides' },
          { type: 'number', name: 'bias', description: 'Bias' },
        ],
      },
    ]);
    const invoke = async (...words: string[]) => {
      const io = testIo(dir);
      const args = ['invoke', ...words, '--url', emu.urls.controlUrl, '--key', emu.emu.adminKey];
      expect(await runCli(['node', 'boardbot', ...args], io)).toBe(1);
      return io.errors;
    };
    expect(await invoke('roll', 'sides=many')).toEqual([
      'error BOARDBOT_CLI_INVOCATION: /roll was refused: option "sides": Expected an integer.',
    ]);
    expect(await invoke('roll', 'sides=1.5', 'bias=x', 'colour=red')).toEqual([
      'error BOARDBOT_CLI_INVOCATION: /roll was refused:\n' +
        '  - option "colour": Unknown option\n' +
        '  - option "sides": Expected an integer\n' +
        '  - option "bias": Expected a number',
    ]);
    expect(await invoke('dance')).toEqual([
      'error BOARDBOT_CLI_INVOCATION: /dance was refused: the command: No app installed on this board registers the ' +
        'command "dance".',
    ]);
  });

  it('says the emulator cannot be reached when nothing listens at --url (exit code 1)', async () => {
    const url = `http://127.0.0.1:${await vacantPort()}/_emulator/v1`;
    const io = testIo(dir);
    expect(await runCli(['node', 'boardbot', 'invoke', 'ping', '--url', url, '--key', 'k'], io)).toBe(1);
    expect(io.errors.join('\n')).toContain(`BOARDBOT_CLI_INVOCATION: The emulator at ${url} cannot be reached`);
  });
});

/** Text in `pieces` chunks, one every `everyMs`: a model writing its answer (the pacing is under test). */
async function* paced(text: string, pieces: number, everyMs: number): AsyncGenerator<string> {
  const size = Math.ceil(text.length / pieces);
  for (let at = 0; at < text.length; at += size) {
    if (at > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
    yield text.slice(at, at + size);
  }
}

const ANSWER = 'A streamed answer arrives in pieces, edited into one message until its final text.';

@Command({ name: 'explain', description: 'Explains, streamed' })
class Explain {
  run(ctx: CommandContext) {
    return ctx.stream(paced(ANSWER, 8, 40), { throttleMs: 30 });
  }
}

let release: () => void = () => {};

/** A model that writes a first thought, then waits until the test releases it. */
async function* thinking(): AsyncGenerator<string> {
  yield 'Let me think';
  await new Promise<void>((resolve) => {
    release = resolve;
  });
}

@Command({ name: 'ponder', description: 'Thinks for as long as the test says' })
class Ponder {
  run(ctx: CommandContext) {
    return ctx.stream(thinking(), { throttleMs: 10 });
  }
}

describe('boardbot invoke --wait', () => {
  it("prints a streamed answer's final text, where without --wait it prints the placeholder", async () => {
    const bot = createBot({
      token: emu.token,
      apiUrl: emu.apiUrl,
      handlers: [Explain],
      handleSignals: false,
      logger: false,
      stateDir: join(dir, 'bot'),
    });
    await bot.start();
    try {
      const invoke = async (...flags: string[]) => {
        const io = testIo(dir);
        const args = ['invoke', 'explain', ...flags, '--url', emu.urls.controlUrl, '--key', emu.emu.adminKey];
        expect(await runCli(['node', 'boardbot', ...args], io)).toBe(0);
        return io.lines;
      };
      expect(await invoke()).toEqual(['…']);
      expect(await invoke('--wait')).toEqual([ANSWER]);
    } finally {
      await bot.stop();
    }
  });

  it('fails, saying so, when the answer is still being written at --timeout', async () => {
    const bot = createBot({
      token: emu.token,
      apiUrl: emu.apiUrl,
      handlers: [Ponder],
      handleSignals: false,
      logger: false,
      stateDir: join(dir, 'bot-timeout'),
    });
    await bot.start();
    try {
      const io = testIo(dir);
      const args = ['invoke', 'ponder', '--wait', '--timeout', '2000', '--url', emu.urls.controlUrl];
      expect(await runCli(['node', 'boardbot', ...args, '--key', emu.emu.adminKey], io)).toBe(1);
      expect(io.errors.join('\n')).toMatch(/answer to \/ponder was still being written after 2000 ms/);
      expect(io.lines).toEqual([]);
    } finally {
      release();
      await bot.stop();
    }
  });
});
