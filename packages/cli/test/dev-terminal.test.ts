import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { runCli } from '@boardbot/cli';
import { buildProjects, until } from '@boardbot/test-support';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fixtureProjectForTest } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

// What a person sees in the terminal of `npm run dev` (docs/getting-started.md): the built CLI runs
// under a real pseudo-terminal (util-linux `script`), so the bot's stdout is a TTY as it is for them,
// in a project made of create-boardbot's own template. The output, with what changes from run to run
// (times, ids, ports, keys, the directory) put back to the doc's values, must be the doc's sample.

beforeAll(() => buildProjects('packages/cli'), 180_000);

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const templates = new URL('../../create-boardbot/templates/', import.meta.url).pathname;
const guide = new URL('../../../docs/getting-started.md', import.meta.url).pathname;

/** Every file of the template's `src/` and its tsconfig, as project paths. */
function templateFiles(dir = join(templates, 'src')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? templateFiles(path) : [relative(templates, path)];
  });
}

/** The fenced block of the guide that contains `marker`, as lines. */
function guideBlock(marker: string): string[] {
  const blocks = [...readFileSync(guide, 'utf8').matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  const block = blocks.find((b) => b.includes(marker));
  if (block === undefined) throw new Error(`docs/getting-started.md has no block with ${marker}`);
  return block.trimEnd().split('\n');
}

/**
 * The terminal's text with the values of this run replaced by those the guide shows (an id is shown
 * by its last six characters, issue 42).
 */
function asInGuide(text: string, dir: string, port: string, adminKey: string): string[] {
  return stripVTControlCharacters(text)
    .replaceAll('\r', '')
    .replaceAll(dir, '/home/you/my-bot')
    .replaceAll(`127.0.0.1:${port}`, '127.0.0.1:8787')
    .replaceAll(adminKey, '3q2Xo…')
    .replace(/^\[\d\d:\d\d:\d\d\]/gm, '[12:00:01]')
    .replace(/…[0-9a-f]{6}\b/g, '…4e5f6a')
    .replace(/"duration_ms":\d+/g, '"duration_ms":4')
    .split('\n')
    .map((l) => l.trimEnd());
}

describe('boardbot dev in a terminal', () => {
  it('prints the start and each handled event as one compact line each, as the guide shows', {
    timeout: 120_000,
  }, async () => {
    const project = fixtureProjectForTest('terminal');
    project.remove();
    for (const file of ['tsconfig.json', ...templateFiles()]) {
      project.write(file, readFileSync(join(templates, file), 'utf8'));
    }
    project.write('package.json', '{ "name": "my-bot", "private": true, "type": "module", "main": "dist/main.js" }\n');
    // `script -e` runs the CLI on a pseudo-terminal and exits with its exit code; stdin is the
    // terminal's keyboard, so a Ctrl-C written there reaches the CLI as it does for a person.
    // `exec`: `script` runs the command through $SHELL, and a shell left waiting in between (dash,
    // CI's /bin/sh, does not exec the last command itself) dies of the Ctrl-C with 130 on its own.
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'development', TERM: 'dumb' };
    delete env.BOARDBOT_TOKEN;
    delete env.BOARDBOT_ADMIN_KEY;
    const child = spawn('script', ['-qefc', `exec '${process.execPath}' '${bin}' dev --port 0`, '/dev/null'], {
      cwd: project.dir,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const exited = once(child, 'exit');
    // A failed test must not leave the CLI running: the pseudo-terminal closes with `script`, and the
    // CLI gets its hang-up.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    // A wait that fails shows what the terminal printed, so the failure says which line came instead.
    const printed = () => stripVTControlCharacters(output);
    await until(() => output.includes('bot started'), 'the bot started', { timeoutMs: 100_000, report: printed });
    const port = /Emulator {6}http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? '';
    const adminKey = /Admin key {5}(\S+)/.exec(output)?.[1] ?? '';

    const invoke = testIo(project.dir);
    expect(await runCli(['node', 'boardbot', 'invoke', 'greet', 'name=Ada'], invoke)).toBe(0);
    expect(invoke.lines).toEqual(['Hello, Ada!']);
    await until(() => output.includes('handled'), 'the handled line', { timeoutMs: 30_000, report: printed });

    const seen = asInGuide(output, project.dir, port, adminKey);
    // Only the lines from `boardbot dev:` on: a checkout without the built playground warns before it.
    const start = seen.findIndex((l) => l.startsWith('boardbot dev:'));
    const started = seen.findIndex((l) => l.includes('bot started'));
    // dev's own line about the gateway and the bot process's lines reach the terminal on two
    // channels (dev is asked for the events over IPC, the bot's log comes through a pipe), so the
    // gateway's line may come anywhere between the bot's start and `bot started`.
    const gatewayLine = (lines: string[]) => lines.filter((l) => l.startsWith('Gateway connected'));
    const others = (lines: string[]) => lines.filter((l) => !l.startsWith('Gateway connected'));
    const block = seen.slice(start, started + 1);
    expect(gatewayLine(block)).toEqual(gatewayLine(guideBlock('boardbot dev:')));
    expect(others(block)).toEqual(others(guideBlock('boardbot dev:')));
    expect(block.findIndex((l) => l.startsWith('Gateway connected'))).toBeGreaterThan(
      block.findIndex((l) => l.startsWith('Starting the bot')),
    );
    expect(seen.filter((l) => l.includes('INFO: handled'))).toEqual(guideBlock('INFO: handled'));

    // A typo in a handler: the bot runs the saved code at once, and the type check's error and its
    // line come once each (issue 42).
    const greet = readFileSync(join(templates, 'src/commands/greet.ts'), 'utf8');
    const startsBefore = output.split('bot started').length;
    let from = output.length;
    project.write('src/commands/greet.ts', greet.replace(': text;', ': text.lenght;'));
    await until(() => output.slice(from).includes('Type check found'), 'the type check', {
      timeoutMs: 60_000,
      report: printed,
    });
    await until(() => output.split('bot started').length > startsBefore, 'the saved code running', {
      timeoutMs: 60_000,
      report: printed,
    });
    const typeCheck = asInGuide(output.slice(from), project.dir, port, adminKey).filter(
      (l) => l.includes('error TS') || l.startsWith('Type check found'),
    );
    expect(typeCheck).toEqual(guideBlock('Type check found'));

    // A start failure (a pattern that backtracks): one block, code, message and fix, no stack.
    from = output.length;
    const ping = readFileSync(join(templates, 'src/listeners/ping.ts'), 'utf8');
    project.write('src/listeners/ping.ts', ping.replace('/^ping$/i', '/^(p+)+$/i'));
    await until(() => output.slice(from).includes('The bot exited'), 'the failed start', {
      timeoutMs: 60_000,
      report: printed,
    });
    const startFailure = output.slice(from);
    const afterTypo = asInGuide(output, project.dir, port, adminKey);
    expect(afterTypo.filter((l) => l.includes('error TS2551'))).toHaveLength(1);
    expect(afterTypo.filter((l) => l.startsWith('Type check found'))).toHaveLength(1);
    expect(asInGuide(startFailure, project.dir, port, adminKey).filter((l) => l !== '')).toEqual(
      guideBlock('ERROR: start failed'),
    );

    // Ctrl-C: `boardbot dev` stops everything and exits with 0 (docs/cli.md).
    child.stdin.write('\x03');
    const [code] = await exited;
    expect(code, output).toBe(0);
    expect(stripVTControlCharacters(output)).toContain('Stopped.');
  });
});
