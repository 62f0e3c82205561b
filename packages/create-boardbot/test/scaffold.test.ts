import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@boardbot/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteDriver } from '../../emulator/src/store/sqlite-driver.js';
import { CREATE_EXIT_CODES, runCreate } from '../src/index.js';
import { projectPackageJson } from '../src/package-json.js';
import { hasNodeSqlite } from '../src/sqlite.js';
import { checkout, recordingIo } from './support.js';

describe('create-boardbot', () => {
  let temp: ReturnType<typeof tempDir> | undefined;
  afterEach(() => {
    temp?.remove();
    temp = undefined;
  });

  it('writes a complete project with decorators configured and the dot files under their real names', async () => {
    temp = tempDir('create-boardbot-');
    const io = recordingIo(temp.dir);
    expect(await runCreate(['my-bot', '--no-install'], io)).toBe(CREATE_EXIT_CODES.ok);
    const dir = join(temp.dir, 'my-bot');
    for (const file of [
      '.env.example',
      '.gitignore',
      'README.md',
      'package.json',
      'src/main.ts',
      'src/bot.ts',
      'src/commands/greet.ts',
      'src/listeners/ping.ts',
      'test/bot.test.ts',
      'test/tsconfig.json',
      'tsconfig.json',
      'vitest.config.ts',
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions).toMatchObject({ experimentalDecorators: true, emitDecoratorMetadata: true });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'my-bot', type: 'module', main: 'dist/main.js' });
    expect(pkg.scripts).toMatchObject({ dev: 'boardbot dev', start: 'boardbot start', test: 'vitest run' });
    expect(pkg.dependencies['@boardbot/core']).toBe('^0.1.0');
    expect(pkg.devDependencies['@boardbot/testing']).toBe('^0.1.0');
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/^# my-bot\n/);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('.env');
    expect(io.lines).toContain('  npm install');
  });

  it('points the boardbot packages at a local checkout with --local', async () => {
    temp = tempDir('create-boardbot-');
    const io = recordingIo(temp.dir);
    expect(await runCreate(['linked', '--local', checkout, '--no-install'], io)).toBe(0);
    const pkg = JSON.parse(readFileSync(join(temp.dir, 'linked', 'package.json'), 'utf8'));
    expect(pkg.dependencies['@boardbot/core']).toBe(`file:${join(checkout, 'packages', 'core')}`);
    expect(pkg.devDependencies['@boardbot/cli']).toBe(`file:${join(checkout, 'packages', 'cli')}`);
    expect(pkg.devDependencies['@boardbot/testing']).toBe(`file:${join(checkout, 'packages', 'testing')}`);
  });

  it('refuses a non-empty directory, leaving its files untouched (exit code 2)', async () => {
    temp = tempDir('create-boardbot-');
    mkdirSync(join(temp.dir, 'taken'));
    writeFileSync(join(temp.dir, 'taken', 'package.json'), 'mine');
    const io = recordingIo(temp.dir);
    expect(await runCreate(['taken', '--no-install'], io)).toBe(CREATE_EXIT_CODES.usage);
    expect(io.errors.join('\n')).toContain('BOARDBOT_CREATE_TARGET_EXISTS');
    expect(readFileSync(join(temp.dir, 'taken', 'package.json'), 'utf8')).toBe('mine');
  });

  it.each([
    [[], 'Missing the project directory'],
    [['a', 'b'], 'Expected one directory'],
    [['Bad Name!', '--no-install'], 'cannot be a package name'],
    [['x', '--nope'], "Unknown option '--nope'"],
  ])('exits with 2 and the usage for %j', async (args, message) => {
    temp = tempDir('create-boardbot-');
    const io = recordingIo(temp.dir);
    expect(await runCreate(args, io)).toBe(CREATE_EXIT_CODES.usage);
    expect(io.errors.join('\n')).toContain(message);
  });

  it('says how to fix a --local path that is not a boardbot checkout', async () => {
    temp = tempDir('create-boardbot-');
    const io = recordingIo(temp.dir);
    expect(await runCreate(['x', '--local', temp.dir], io)).toBe(CREATE_EXIT_CODES.usage);
    expect(io.errors.join('\n')).toContain('is not a boardbot checkout');
    expect(existsSync(join(temp.dir, 'x'))).toBe(false);
  });

  it('prints its usage with --help', async () => {
    const io = recordingIo(process.cwd());
    expect(await runCreate(['--help'], io)).toBe(0);
    expect(io.lines.join('\n')).toContain('--local <repo>');
  });

  it('reports a failed install with exit code 1, keeping the written project', async () => {
    temp = tempDir('create-boardbot-');
    const io = recordingIo(temp.dir, async () => 7);
    expect(await runCreate(['broken'], io)).toBe(CREATE_EXIT_CODES.failure);
    expect(io.errors.join('\n')).toContain('npm install failed with exit code 7');
    expect(existsSync(join(temp.dir, 'broken', 'src', 'main.ts'))).toBe(true);
  });
});

describe('the SQLite driver of a new project', () => {
  it('adds better-sqlite3 only where Node has no node:sqlite, so a project on Node 24 builds nothing natively', () => {
    const withNodeSqlite = projectPackageJson('a', { kind: 'registry' }, true) as { devDependencies: object };
    expect(withNodeSqlite.devDependencies).not.toHaveProperty('better-sqlite3');
    const without = projectPackageJson('a', { kind: 'registry' }, false) as { devDependencies: object };
    expect(without.devDependencies).toHaveProperty('better-sqlite3', '^12.11.1');
    // Linked to a checkout, the emulator finds the checkout's own driver.
    const local = projectPackageJson('a', { kind: 'local', checkout: '/repo' }, false) as { devDependencies: object };
    expect(local.devDependencies).not.toHaveProperty('better-sqlite3');
  });

  it('asks the same question as the emulator when it picks its driver', () => {
    expect(hasNodeSqlite()).toBe(sqliteDriver().name === 'node:sqlite');
  });
});
