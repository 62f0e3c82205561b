import { CLI_ERROR_CODES, CLI_VERSION, EXIT_CODES, runCli } from '@boardbot/cli';
import { createProgram } from '@boardbot/cli/internal';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { testIo } from './support/test-io.js';

const run = (...args: string[]) => {
  const io = testIo(process.cwd());
  return runCli(['node', 'boardbot', ...args], io).then((code) => ({ code, io }));
};

describe('the boardbot program', () => {
  it.each([
    [],
    ['dev'],
    ['start'],
    ['emulator'],
    ['commands'],
    ['commands', 'diff'],
    ['commands', 'sync'],
    ['commands', 'list'],
    ['invoke'],
  ])('`%s --help` prints usage and exits with 0', async (...args) => {
    const { code, io } = await run(...(args as string[]), '--help');
    expect(code).toBe(EXIT_CODES.ok);
    expect(io.lines.join('\n')).toMatch(/^Usage: boardbot/);
  });

  it('prints its version with --version and exits with 0', async () => {
    const { code, io } = await run('--version');
    expect(code).toBe(EXIT_CODES.ok);
    expect(io.lines).toEqual([CLI_VERSION]);
    expect(CLI_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits with 2 on an unknown command, an unknown flag or a bad port', async () => {
    expect((await run('nope')).code).toBe(EXIT_CODES.usage);
    const flag = await run('start', '--nope');
    expect(flag.code).toBe(EXIT_CODES.usage);
    expect(flag.io.errors.join('\n')).toContain("unknown option '--nope'");
    const port = await run('dev', '--port', 'eighty');
    expect(port.code).toBe(EXIT_CODES.usage);
    expect(port.io.errors.join('\n')).toContain('Expected a port number');
  });

  it('warns in docs/cli.md that every flag taking a secret is visible to local users, and shows .env instead', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
    const section = /### Secrets stay off the command line\n([\s\S]*?)\n## /.exec(text)?.[1] ?? '';
    expect(section).toMatch(/every local user can read/);
    expect(section).toMatch(/BOARDBOT_TOKEN=[\s\S]*BOARDBOT_ADMIN_KEY=/);
    // Each command's flags that carry a token or a key, as the program declares them.
    const secretFlags = new Set<string>();
    const visit = (command: Command) => {
      for (const option of command.options) {
        if (/^--(token|key|admin-key)$/.test(option.long ?? '')) secretFlags.add(option.long ?? '');
      }
      command.commands.forEach(visit);
    };
    visit(createProgram(testIo(process.cwd())));
    expect([...secretFlags].sort()).toEqual(['--key', '--token']);
    for (const flag of secretFlags) expect(section, flag).toContain(`${flag} <`);
  });

  it('documents every error code and exit code in the README and docs/cli.md', async () => {
    const { readFileSync } = await import('node:fs');
    for (const doc of ['../README.md', '../../../docs/cli.md']) {
      const text = readFileSync(new URL(doc, import.meta.url), 'utf8');
      for (const code of CLI_ERROR_CODES) expect(text, doc).toContain(code);
      for (const exit of Object.values(EXIT_CODES)) expect(text, doc).toMatch(new RegExp(`\\| ${exit} +\\|`));
    }
  });
});
