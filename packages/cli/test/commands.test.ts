import { runCli } from '@boardbot/cli';
import { buildProjects } from '@boardbot/test-support';
import { type SeededEmulator, startSeededEmulator } from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Control } from './support/control.js';
import { buildFixtureProject, createFixtureProject, type FixtureProject } from './support/fixture-project.js';
import { testIo } from './support/test-io.js';

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

describe('boardbot commands', () => {
  let project: FixtureProject;
  let emu: SeededEmulator;
  let control: Control;
  const argv = (...args: string[]) => ['node', 'boardbot', 'commands', ...args];
  const env = () => ({ BOARDBOT_TOKEN: 'fixture-token', BOARDBOT_API_URL: emu.urls.apiUrl });

  beforeAll(async () => {
    project = createFixtureProject('commands');
    await buildFixtureProject(project);
    emu = await startSeededEmulator({ devToken: 'fixture-token' });
    control = new Control(emu.urls.controlUrl, emu.emu.adminKey);
  });
  afterAll(async () => {
    await emu?.close();
    project?.remove();
  });

  it('lists the declared commands with their options, without a token', async () => {
    const io = testIo(project.dir);
    expect(await runCli(argv('list'), io)).toBe(0);
    expect(io.lines[0]).toBe('1 command declared by dist/bot.js');
    expect(io.lines).toContain('  /ping  Answers pong');
    expect(io.lines.join('\n')).toMatch(/text {2}string optional {2}Echoed back/);

    const json = testIo(project.dir);
    expect(await runCli(argv('list', '--json'), json)).toBe(0);
    expect(JSON.parse(json.lines.join('\n'))).toEqual([
      {
        name: 'ping',
        description: 'Answers pong',
        options: [{ name: 'text', description: 'Echoed back', type: 'string', max_length: 1000 }],
      },
    ]);
  });

  it('diff exits with 3 on drift, sync --dry-run writes nothing, sync registers, then diff exits with 0', async () => {
    const diff = testIo(project.dir, env());
    expect(await runCli(argv('diff'), diff)).toBe(3);
    expect(diff.lines.join('\n')).toContain('+ /ping');
    expect(diff.errors.join('\n')).toContain('boardbot commands sync');

    const dry = testIo(project.dir, env());
    expect(await runCli(argv('sync', '--dry-run'), dry)).toBe(0);
    expect(dry.lines.join('\n')).toContain('Dry run: nothing was written');
    expect(await control.registeredCommands()).toEqual([]);

    const sync = testIo(project.dir, env());
    expect(await runCli(argv('sync'), sync)).toBe(0);
    expect(sync.lines.join('\n')).toContain('Registered 1 command');
    expect(await control.registeredCommands()).toEqual(['ping']);

    const again = testIo(project.dir, env());
    expect(await runCli(argv('diff'), again)).toBe(0);
    expect(again.lines[0]).toMatch(/^Commands in sync/);

    const registered = testIo(project.dir, env());
    expect(await runCli(argv('list', '--registered'), registered)).toBe(0);
    expect(registered.lines).toContain('  /ping  Answers pong');
  });

  it('reads the token from .env and lets the environment win over it', async () => {
    project.write('.env', `BOARDBOT_TOKEN=wrong-token\nBOARDBOT_API_URL=${emu.urls.apiUrl}\n`);
    try {
      const fromFile = testIo(project.dir, {});
      expect(await runCli(argv('diff'), fromFile)).toBe(1);
      expect(fromFile.errors.join('\n')).toContain('BOARDBOT_UNAUTHORIZED');
      expect(fromFile.errors.join('\n')).not.toContain('wrong-token');

      const fromEnv = testIo(project.dir, { BOARDBOT_TOKEN: 'fixture-token' });
      expect(await runCli(argv('diff'), fromEnv)).toBe(0);
    } finally {
      project.write('.env', '');
    }
  });

  it('fails with exit code 2 and the fix when the token is missing', async () => {
    const io = testIo(project.dir, { BOARDBOT_API_URL: emu.urls.apiUrl });
    expect(await runCli(argv('diff'), io)).toBe(2);
    expect(io.errors.join('\n')).toContain('BOARDBOT_CLI_MISSING_TOKEN');
    expect(io.errors.join('\n')).toContain('BOARDBOT_TOKEN=<token> in .env');
  });

  it('fails with exit code 2 and the fix when the bot module is missing or exports no handlers', async () => {
    const missing = testIo(project.dir, env());
    expect(await runCli(argv('list', '--bot', 'dist/nope.js'), missing)).toBe(2);
    expect(missing.errors.join('\n')).toContain('The bot module dist/nope.js does not exist');
    expect(missing.errors.join('\n')).toContain('npm run build');

    project.write('dist/empty.js', 'export const nothing = 1;\n');
    const empty = testIo(project.dir, env());
    expect(await runCli(argv('list', '--bot', 'dist/empty.js'), empty)).toBe(2);
    expect(empty.errors.join('\n')).toContain('does not export `handlers`');
  });

  it('falls back to the one exported array of classes, and refuses to guess between two', async () => {
    project.write(
      'dist/named.js',
      "import { Ping } from './ping.js';\nexport { Ping };\nexport const MY_HANDLERS = [Ping];\n",
    );
    const named = testIo(project.dir);
    expect(await runCli(argv('list', '--bot', 'dist/named.js'), named)).toBe(0);
    expect(named.lines).toContain('  /ping  Answers pong');

    project.write(
      'dist/two.js',
      "import { Ping } from './ping.js';\nexport const A = [Ping];\nexport const B = [Ping];\n",
    );
    const two = testIo(project.dir);
    expect(await runCli(argv('list', '--bot', 'dist/two.js'), two)).toBe(2);
    expect(two.errors.join('\n')).toContain('does not export `handlers`');
  });

  it('fails with exit code 1 and a hint when the platform cannot be reached', async () => {
    const io = testIo(project.dir, { BOARDBOT_TOKEN: 'fixture-token', BOARDBOT_API_URL: 'http://127.0.0.1:9/api/v1' });
    expect(await runCli(argv('diff'), io)).toBe(1);
    expect(io.errors).toEqual([
      'error BOARDBOT_NETWORK: GET /app/commands (http://127.0.0.1:9/api/v1/app/commands) failed: network error ' +
        'ECONNREFUSED (2 attempt(s)). Check that the platform is running at that address. The address comes from ' +
        'BOARDBOT_API_URL (or --api-url); for the local emulator, run `boardbot emulator` or `boardbot dev`.',
    ]);
  });
});
