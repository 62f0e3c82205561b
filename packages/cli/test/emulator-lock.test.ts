import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildProjects, tempDir } from '@boardbot/test-support';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { advisedFlags, type CliProcess, spawnCli } from './support/cli-process.js';

// Two emulators on one database file corrupted it (the first then answered every invocation with
// 500): each holds its file for as long as it runs, and the OS lets go of it when the process dies.

beforeAll(() => buildProjects('packages/cli'), 180_000);

const KEY = { BOARDBOT_ADMIN_KEY: 'admin-key-of-the-lock-tests' };

function project(): string {
  const dir = tempDir('boardbot-emulator-lock-');
  onTestFinished(() => dir.remove());
  return dir.dir;
}

/** `boardbot emulator` on `db`, once it listens, and its base URL. */
async function emulator(cwd: string, db: string, extra: string[] = []): Promise<{ cli: CliProcess; url: string }> {
  const cli = spawnCli(['emulator', '--db', db, '--port', '0', ...extra], cwd, KEY);
  const [, api] = await cli.waitFor(/API base URL {2}(http:\/\/\S+)\/api\/v1\n[\s\S]*Press Ctrl\+C/);
  return { cli, url: api as string };
}

/** How a refused emulator ends: its exit code, or `'listening'` when it was not refused. */
function outcome(cli: CliProcess): Promise<number | NodeJS.Signals | 'listening'> {
  const listening = cli.waitFor(/Press Ctrl\+C/).then(
    () => 'listening' as const,
    () => new Promise<never>(() => {}),
  );
  return Promise.race([cli.exited, listening]);
}

async function appStatus(url: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/app`, { headers: { authorization: 'Bearer dev-token' } });
  await res.arrayBuffer();
  return res.status;
}

describe('an emulator holds its database file', () => {
  it('a second one on the same file exits at once, non-zero, naming the file, the holder and the fix, while the first still answers', {
    timeout: 60_000,
  }, async () => {
    const cwd = project();
    const first = await emulator(cwd, 'state/bot.db');
    expect(await appStatus(first.url)).toBe(200);

    const second = spawnCli(['emulator', '--db', 'state/bot.db', '--port', '0'], cwd, KEY);
    expect(await outcome(second)).toBe(1);
    const message = second.output();
    expect(message).toContain('error BOARDBOT_CLI_DB_IN_USE: The emulator database state/bot.db is in use');
    expect(message).toContain(`pid ${first.cli.pid}, ${first.url}`);
    expect(message).toContain('add `--db state/bot-2.db --port 0`');
    expect(message).not.toContain('Press Ctrl+C');
    expect(await appStatus(first.url)).toBe(200);

    // The fix, followed as written: a second emulator beside the first, each on its own file.
    const beside = await emulator(cwd, 'state/bot.db', advisedFlags(message));
    expect(beside.cli.output()).toContain('database: state/bot-2.db');
    expect(await appStatus(beside.url)).toBe(200);
    expect(await appStatus(first.url)).toBe(200);

    // New files are their owner's only, whatever the umask (vitest's is the usual 022).
    for (const file of ['bot.db', 'bot.db-wal', 'bot.db-shm', 'bot.db.lock', 'bot.db.owner.json', 'bot-2.db']) {
      expect(statSync(join(cwd, 'state', file)).mode & 0o777, file).toBe(0o600);
    }
    expect(statSync(join(cwd, 'state')).mode & 0o777).toBe(0o700);
    // The owner record names the holder; the admin key is never in it.
    expect(readFileSync(join(cwd, 'state', 'bot.db.owner.json'), 'utf8')).not.toContain(KEY.BOARDBOT_ADMIN_KEY);

    expect(await first.cli.stop()).toBe(0);
    expect(await beside.cli.stop()).toBe(0);
  });

  it('after kill -9 of the holder, a new emulator on the same file starts at once, with the data', {
    timeout: 60_000,
  }, async () => {
    const cwd = project();
    const first = await emulator(cwd, 'bot.db');
    const posted = await fetch(`${first.url}/_emulator/v1/boards`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY.BOARDBOT_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept' }),
    });
    expect(posted.status).toBe(201);
    const refused = spawnCli(['emulator', '--db', 'bot.db', '--port', '0'], cwd, KEY);
    expect(await outcome(refused)).toBe(1);

    expect(await first.cli.stop('SIGKILL')).toBe('SIGKILL');
    const next = await emulator(cwd, 'bot.db');
    const state = await fetch(`${next.url}/_emulator/v1/state`, {
      headers: { authorization: `Bearer ${KEY.BOARDBOT_ADMIN_KEY}` },
    });
    expect(((await state.json()) as { boards: { name: string }[] }).boards.map((b) => b.name)).toContain('kept');
    // Its owner record is its own now: a third one is told who holds the file.
    const third = spawnCli(['emulator', '--db', 'bot.db', '--port', '0'], cwd, KEY);
    expect(await outcome(third)).toBe(1);
    expect(third.output()).toContain(`pid ${next.cli.pid}, ${next.url}`);
    expect(await next.cli.stop()).toBe(0);
  });
});
