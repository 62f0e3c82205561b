import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotProcess } from '@boardbot/cli';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Small real child processes stand in for the bot: what matters here is the process handling.
const cliDist = new URL('../dist/index.js', import.meta.url).href;
describe('BotProcess', () => {
  let dir: string;
  let bot: BotProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'boardbot-process-'));
  });
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function entry(name: string, code: string): string {
    const file = join(dir, name);
    writeFileSync(file, code);
    return file;
  }

  function lines(): { out: string[]; err: string[]; output: { out: (l: string) => void; err: (l: string) => void } } {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, output: { out: (l) => out.push(l), err: (l) => err.push(l) } };
  }

  async function until(check: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(check()).toBe(true);
  }

  it('passes the environment, forwards the output, and stops the bot gracefully with SIGTERM', async () => {
    const io = lines();
    const file = entry(
      'bot.mjs',
      `console.log('token=' + process.env.BOARDBOT_TOKEN);
       setInterval(() => {}, 1000);
       process.on('SIGTERM', () => { console.error('graceful stop'); process.exit(0); });`,
    );
    bot = new BotProcess({ entry: file, cwd: dir, env: { BOARDBOT_TOKEN: 't1' }, output: io.output });
    await bot.restart();
    await until(() => io.out.includes('token=t1'));
    await bot.stop();
    expect(bot.running).toBe(false);
    await until(() => io.err.includes('graceful stop'));
  });

  it('kills a bot that ignores SIGTERM after the stop timeout', async () => {
    const io = lines();
    const file = entry(
      'stubborn.mjs',
      `process.on('SIGTERM', () => console.log('ignored')); setInterval(() => {}, 1000); console.log('up');`,
    );
    bot = new BotProcess({ entry: file, cwd: dir, env: {}, output: io.output, stopTimeoutMs: 300 });
    await bot.restart();
    await until(() => io.out.includes('up'));
    await bot.stop();
    expect(bot.running).toBe(false);
    expect(io.out).toContain('ignored');
  });

  it('reports a bot that exits by itself, and not one it stopped', async () => {
    const exits: (number | null)[] = [];
    const io = lines();
    const crash = entry('crash.mjs', `console.log('start'); process.exit(3);`);
    bot = new BotProcess({
      entry: crash,
      cwd: dir,
      env: {},
      output: io.output,
      onUnexpectedExit: (code) => exits.push(code),
    });
    await bot.restart();
    await until(() => exits.length === 1);
    expect(exits).toEqual([3]);
    expect(bot.running).toBe(false);
    expect(bot.startCount).toBe(1);
  });

  it('stops the bot when the CLI dies without stopping it (kill -9)', async () => {
    // A real parent: a node process that starts the bot with the built CLI, then is killed.
    const marks = join(dir, 'marks.txt');
    const orphan = entry(
      'orphan.mjs',
      `import { appendFileSync } from 'node:fs';
       appendFileSync(${JSON.stringify(marks)}, 'up\\n');
       setInterval(() => {}, 1000);
       process.on('SIGTERM', () => { appendFileSync(${JSON.stringify(marks)}, 'bye\\n'); process.exit(0); });`,
    );
    const parent = entry(
      'parent.mjs',
      `import { BotProcess } from ${JSON.stringify(cliDist)};
       await new BotProcess({ entry: ${JSON.stringify(orphan)}, cwd: ${JSON.stringify(dir)}, env: {} }).restart();
       setInterval(() => {}, 1000);`,
    );
    const child = spawn(process.execPath, [parent], { stdio: 'ignore' });
    const read = () => (existsSync(marks) ? readFileSync(marks, 'utf8') : '');
    await until(() => read().includes('up'));
    child.kill('SIGKILL');
    await until(() => read().includes('bye'));
  });
});
