import { spawnSync } from 'node:child_process';
import { buildProjects, LoggingProcess, type RedisServer, startRedisServer, until } from '@boardbot/test-support';
import {
  type InstalledApp,
  installedApps,
  type SeededEmulator,
  startSeededEmulator,
} from '@boardbot/test-support/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureProject, createFixtureProject, type FixtureProject } from './support/fixture-project.js';

// CONTRACT (docs/hosting.md, "Across replicas"; docs/cli.md): `boardbot start --host <file> --redis
// <url>` runs one replica of the host; two of them spread the file's apps, and when one is killed
// with SIGKILL its apps move to the other, every command answered exactly once. Real CLI processes,
// one redis-server and one emulator.

// Runs the built CLI: build it first (a no-op when up to date), so it is never a stale build.
beforeAll(() => buildProjects('packages/cli'), 180_000);

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const APPS = 6;

/** Which apps a replica runs now, from its log: taken and not handed over or lost since. */
function held(replica: LoggingProcess): Set<string> {
  const mine = new Set<string>();
  for (const l of replica.lines) {
    if (typeof l.app !== 'string') continue;
    if (l.msg === 'app taken: running it on this replica') mine.add(l.app);
    else if (l.msg === 'app handed over' || l.msg?.startsWith('app lease lost')) mine.delete(l.app);
  }
  return mine;
}

/** Whether the replica reads the gateway of each of `apps` since it last took it. */
function reading(replica: LoggingProcess, apps: Iterable<string>): boolean {
  return [...apps].every((app) => {
    const lines = replica.lines.filter((l) => l.app === app);
    const taken = lines.findLastIndex((l) => l.msg === 'app taken: running it on this replica');
    return taken >= 0 && lines.slice(taken).some((l) => l.msg === 'reading the gateway');
  });
}

describe('boardbot start --host --redis', () => {
  let project: FixtureProject;
  let emu: SeededEmulator;
  let redis: RedisServer;
  let apps: InstalledApp[];
  const replicas: LoggingProcess[] = [];

  beforeAll(async () => {
    project = createFixtureProject('start-host-redis', { definition: true });
    await buildFixtureProject(project);
    [emu, redis] = await Promise.all([startSeededEmulator(), startRedisServer()]);
    apps = await installedApps(emu, APPS);
    const hosts = apps.map((a, i) => ({ id: a.name, module: 'dist/bot.js', tokenEnv: `APP_TOKEN_${i}` }));
    project.write('hosts.json', JSON.stringify({ apps: hosts }));
  }, 120_000);
  afterAll(async () => {
    for (const r of replicas) await r.kill().catch(() => {});
    await emu?.close();
    await redis?.close();
    project?.remove();
  });

  /** Starts replica `id`, given the Redis URL by `--redis`, or else by `BOARDBOT_REDIS_URL`. */
  const start = (id: string, urlBy: 'flag' | 'env'): LoggingProcess => {
    const redisFlag = urlBy === 'flag' ? ['--redis', redis.url] : [];
    const replica = new LoggingProcess({
      script: bin,
      args: ['start', '--host', 'hosts.json', ...redisFlag, '--replica-id', id],
      cwd: project.dir,
      name: `replica ${id}`,
      env: {
        ...(urlBy === 'env' && { BOARDBOT_REDIS_URL: redis.url }),
        BOARDBOT_API_URL: emu.apiUrl,
        LOG_LEVEL: 'info',
        ...Object.fromEntries(apps.map((a, i) => [`APP_TOKEN_${i}`, a.token])),
      },
    });
    replicas.push(replica);
    return replica;
  };

  it('two replicas split the apps; one SIGKILLed, its apps move to the other, every command answered once', async () => {
    const a = start('r0', 'flag');
    await a.waitFor((l) => l.msg === 'host replica joined');
    const b = start('r1', 'env');
    await b.waitFor((l) => l.msg === 'host replica joined');
    const report = () => `${a.report()}\n${b.report()}`;
    await until(() => held(a).size === APPS / 2 && held(b).size === APPS / 2, 'the apps split over both replicas', {
      timeoutMs: 60_000,
      report,
    });
    await until(() => reading(a, held(a)) && reading(b, held(b)), 'each app reading its gateway on its replica', {
      timeoutMs: 60_000,
      report,
    });
    const moved = [...held(b)];

    // alice invokes /ping on every app's board, round after round; r1 is killed after the second.
    const asked = new Map<string, string[]>(apps.map((app) => [app.name, []]));
    let killedAt = 0;
    for (let round = 0; round < 5; round++) {
      if (round === 2) {
        await b.kill();
        killedAt = a.lines.length;
      }
      for (const app of apps) {
        const body = { board_id: app.board.id, user_id: emu.seed.alice.id, command: 'ping', options: {} };
        asked.get(app.name)?.push((await emu.control.invoke({ ...body, app_id: app.id })).id);
      }
    }

    await until(
      () =>
        held(a).size === APPS &&
        reading(
          a,
          apps.map((app) => app.name),
        ),
      'every app on r0',
      {
        timeoutMs: 60_000,
        report,
      },
    );
    const tally = async () => {
      let missing = 0;
      const twice: string[] = [];
      for (const app of apps) {
        const answers = (await emu.allMessages(app.board.id)).filter((m) => m.author === app.botUser);
        const to = answers.map((m) => m.interaction?.id);
        for (const id of asked.get(app.name) ?? []) {
          const n = to.filter((t) => t === id).length;
          if (n === 0) missing++;
          if (n > 1) twice.push(id);
        }
      }
      return { missing, twice };
    };
    await until(async () => (await tally()).missing === 0, 'every command answered', {
      timeoutMs: 60_000,
      intervalMs: 500,
      report: async () => `${JSON.stringify(await tally())}\n${report()}`,
    });
    expect(await a.stop()).toBe(0);
    expect(await tally()).toEqual({ missing: 0, twice: [] });
    expect(moved).toHaveLength(APPS / 2);
    // The apps r1 ran were taken by r0 after the kill.
    const takenAfterKill = a.lines.slice(killedAt).filter((l) => l.msg === 'app taken: running it on this replica');
    expect(new Set(takenAfterKill.map((l) => l.app))).toEqual(new Set(moved));
  }, 240_000);

  it('refuses --replica-id and --host-name without --host, with exit code 2', () => {
    for (const flag of ['--replica-id', '--host-name']) {
      const run = spawnSync(process.execPath, [bin, 'start', '--redis', redis.url, flag, 'r9'], {
        cwd: project.dir,
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('they go with --host <file> --redis <url>');
    }
  });
});
