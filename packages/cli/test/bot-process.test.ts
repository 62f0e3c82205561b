import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BotProcess } from '@boardbot/cli/internal';
import { buildProjects } from '@boardbot/test-support';
import ts from 'typescript';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

// Small real child processes stand in for the bot: what matters here is the process handling.
const cliDist = new URL('../dist/internal.js', import.meta.url).href;
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

  /** Captured output lines, and a promise per awaited line (the bot's output is the event a test means). */
  function lines() {
    const out: string[] = [];
    const err: string[] = [];
    const waiters: { text: string; resolve: () => void }[] = [];
    const push = (into: string[]) => (line: string) => {
      into.push(line);
      for (const w of waiters.filter((w) => w.text === line)) w.resolve();
    };
    const seen = (text: string) =>
      out.includes(text) || err.includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ text, resolve }));
    return { out, err, seen, output: { out: push(out), err: push(err) } };
  }

  it('passes the environment, forwards the output, and stops the bot gracefully with SIGTERM', async () => {
    const io = lines();
    const file = entry(
      'bot.mjs',
      // The handler first: the test stops the bot as soon as it has printed its token.
      `process.on('SIGTERM', () => { console.error('graceful stop'); process.exit(0); });
       setInterval(() => {}, 1000);
       console.log('token=' + process.env.BOARDBOT_TOKEN);`,
    );
    bot = new BotProcess({ entry: file, cwd: dir, env: { BOARDBOT_TOKEN: 't1' }, output: io.output });
    await bot.restart();
    await io.seen('token=t1');
    await bot.stop();
    expect(bot.running).toBe(false);
    await io.seen('graceful stop');
    expect(io.err).toContain('graceful stop');
  });

  it('runs the bot with source maps, so a stack trace names the TypeScript file and line', async () => {
    // What `tsc` (or dev's fast emit) writes for a source whose third line throws: JS and its map.
    const source = [
      'export function roll(sides: number): number {',
      '  const n: number = sides;',
      "  throw new Error('broken dice ' + n);",
      '}',
      '',
    ].join('\n');
    const out = ts.transpileModule(source, {
      fileName: 'dice.ts',
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: true },
    });
    writeFileSync(join(dir, 'dice.js'), out.outputText);
    writeFileSync(join(dir, 'dice.js.map'), out.sourceMapText ?? '');
    const io = lines();
    const file = entry(
      'bot.mjs',
      `import { roll } from './dice.js'; try { roll(6); } catch (e) { console.error(e.stack); }`,
    );
    bot = new BotProcess({ entry: file, cwd: dir, env: {}, output: io.output });
    await bot.restart();
    await io.seen('Error: broken dice 6');
    await bot.stop();
    expect(io.err.find((l) => l.includes('at roll'))).toMatch(/dice\.ts:3:\d+/);
  });

  it('kills a bot that ignores SIGTERM after the stop timeout', async () => {
    const io = lines();
    const file = entry(
      'stubborn.mjs',
      `process.on('SIGTERM', () => console.log('ignored')); setInterval(() => {}, 1000); console.log('up');`,
    );
    bot = new BotProcess({ entry: file, cwd: dir, env: {}, output: io.output, stopTimeoutMs: 300 });
    await bot.restart();
    await io.seen('up'); // its SIGTERM handler is installed: SIGTERM alone cannot end it
    const pid = bot.pid as number;
    await bot.stop();
    expect(bot.running).toBe(false);
    // stop() resolved only once the process was gone: the SIGKILL after the timeout ended it.
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('reports a bot that exits by itself, and not one it stopped', async () => {
    const exits: (number | null)[] = [];
    const io = lines();
    const crash = entry('crash.mjs', `console.log('start'); process.exit(3);`);
    let reported: () => void = () => {};
    const exited = new Promise<void>((resolve) => {
      reported = resolve;
    });
    bot = new BotProcess({
      entry: crash,
      cwd: dir,
      env: {},
      output: io.output,
      onUnexpectedExit: (code) => {
        exits.push(code);
        reported();
      },
    });
    await bot.restart();
    await exited;
    expect(exits).toEqual([3]);
    expect(bot.running).toBe(false);
    expect(bot.startCount).toBe(1);
  });

  it('stops the bot when the CLI dies without stopping it (kill -9)', async () => {
    // A real parent: a node process that starts the bot with the built CLI, then is killed. The bot
    // inherits the parent's stdout, a pipe to this test, which outlives the parent.
    const orphan = entry(
      'orphan.mjs',
      `process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
       setInterval(() => {}, 1000);
       console.log('up');`,
    );
    const parent = entry(
      'parent.mjs',
      `import { BotProcess } from ${JSON.stringify(cliDist)};
       await new BotProcess({ entry: ${JSON.stringify(orphan)}, cwd: ${JSON.stringify(dir)}, env: {} }).restart();
       setInterval(() => {}, 1000);`,
    );
    const child = spawn(process.execPath, [parent], { stdio: ['ignore', 'pipe', 'inherit'] });
    const printed: string[] = [];
    const reader = createInterface({ input: child.stdout });
    reader.on('line', (l) => printed.push(l));
    const line = (text: string) =>
      new Promise<void>((resolve) => {
        if (printed.includes(text)) resolve();
        reader.on('line', (l) => l === text && resolve());
      });
    // A parent that cannot start the bot (a failed import, say) fails the test at once, not at its timeout.
    const parentDied = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`the parent exited with ${code} before the bot was up`))),
    );
    await Promise.race([line('up'), parentDied]);
    child.kill('SIGKILL');
    await line('bye');
    expect(printed).toEqual(['up', 'bye']);
  });
});
