import {
  Command,
  type CommandContext,
  createHost,
  defineBot,
  type Host,
  type HostOptions,
  Option,
} from '@boardbot/core';
import { type TempDir, tempDir, until } from '@boardbot/test-support';
import {
  type InstalledApp,
  installedApps,
  type SeededEmulator,
  startSeededEmulator,
} from '@boardbot/test-support/emulator';
import { IsInt } from 'class-validator';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { redisHost } from '../src/index.js';
import { useRedis } from './support/redis.js';
import { freshPrefix } from './support/replicas.js';

// CONTRACT (docs/hosting.md, "Across replicas"): a replica of a host serves all its apps with one
// connection for commands, one for the shared blocking read and one heartbeat; each app answers as
// itself, once.

class AskOptions {
  @Option({ description: 'A number' }) @IsInt() n!: number;
}

@Command({ name: 'ask', description: 'Answers with its app and number', options: AskOptions })
class Ask {
  run(ctx: CommandContext<AskOptions>, { n }: AskOptions) {
    return `${ctx.app.name} ${n}`;
  }
}

const bot = defineBot({ handlers: [Ask] });
const APPS = 8;

const redis = useRedis();
let emulator: SeededEmulator;
let state: TempDir;
let host: Host | undefined;
/** The platform's apps, by their id in the host: their own board, and their token. */
const apps = new Map<string, InstalledApp>();

beforeAll(async () => {
  emulator = await startSeededEmulator({ rateLimit: { requests: 100_000 } });
  for (const app of await installedApps(emulator, APPS)) apps.set(app.name, app);
}, 30_000);

afterAll(async () => {
  await emulator.close();
});

afterEach(async () => {
  await host?.stop();
  host = undefined;
  state.remove();
});

// One host, nothing to take over: the default lease (3 s). With 900 ms, a host that missed two
// heartbeats on a CI machine at a load of 4 to 10 lost its leases, and the check of the host's keys
// found no app's lease at that moment.
function startHost(prefix: string): Promise<void> {
  state = tempDir('boardbot-redis-host-');
  host = createHost(
    {
      stateDir: state.dir,
      logger: false,
      handleSignals: false,
      defaults: { apiUrl: emulator.apiUrl },
      scale: redisHost({ url: redis().server.url, keyPrefix: prefix }),
    },
    [...apps.keys()].map((id) => ({ id, bot, token: async (name: string) => apps.get(name)?.token ?? '' })),
  );
  return host.start();
}

/** The ids of Redis's clients now. */
async function clients(): Promise<Set<string>> {
  const list = String(await redis().client.call('CLIENT', 'LIST'));
  return new Set([...list.matchAll(/^id=(\d+) /gm)].map((m) => m[1] as string));
}

/** alice invokes `/ask n` on every app's board; resolves with each app's answers. */
async function askEvery(n: number): Promise<Map<string, string[]>> {
  const invoked = await Promise.all(
    [...apps].map(async ([name, app]) => {
      const interaction = await emulator.control.invoke({
        board_id: app.board.id,
        user_id: emulator.seed.alice.id,
        command: 'ask',
        options: { n },
        app_id: app.id,
      });
      return [name, interaction.id] as const;
    }),
  );
  const answers = await Promise.all(
    invoked.map(async ([name, id]) => {
      const view = await emulator.control.wait(id, { answers: 1, timeoutMs: 15_000 });
      return [name, view.answers.map((a) => a.content ?? '')] as const;
    }),
  );
  return new Map(answers);
}

it('serves every app of a replica with two Redis connections, each app answering as itself, once', async () => {
  const before = await clients();
  await startHost(freshPrefix());
  expect(host?.status().every((a) => a.state === 'running')).toBe(true);
  const opened = [...(await clients())].filter((id) => !before.has(id));
  // One connection for commands (every app's heartbeat, leases, appends, acks), one blocking read.
  expect(opened).toHaveLength(2);
  for (let n = 0; n < 3; n++) {
    const answers = await askEvery(n);
    for (const name of apps.keys()) expect(answers.get(name)).toEqual([`${name} ${n}`]);
  }
  // Nothing answered twice once the handlers ran.
  await host?.stop();
  for (const [name, app] of apps) {
    const byApp = (await emulator.allMessages(app.board.id)).filter((m) => m.interaction !== null);
    expect(byApp.map((m) => m.content).sort()).toEqual([0, 1, 2].map((n) => `${name} ${n}`));
  }
});

it('keeps each app’s keys those of its bot alone, and the host’s beside them under their own tag', async () => {
  const prefix = freshPrefix();
  await startHost(prefix);
  await askEvery(7);
  const keys = (await redis().client.keys(`${prefix}:*`)).sort();
  const hostKeys = keys.filter((k) => k.startsWith(`${prefix}:{host:host}:`));
  expect(hostKeys.sort()).toEqual(
    [
      `${prefix}:{host:host}:fence`,
      `${prefix}:{host:host}:members`,
      ...[...apps.keys()].map((a) => `${prefix}:{host:host}:app:${a}`),
    ].sort(),
  );
  // Every other key is an app's bot's own (`<prefix>:{<app id>:<platform>}:...`, or its token's bucket).
  const ids = [...apps.values()].map((a) => a.id);
  for (const key of keys.filter((k) => !hostKeys.includes(k))) {
    const tag = /^[^:]+:\{([^:}]+)[:}]/.exec(key)?.[1];
    expect(tag === 'bucket' || ids.includes(tag as string), key).toBe(true);
  }
});

/** A replica of the host of every app, over Redis keys under `prefix`, its state in `dir/id`. */
function replicaOf(prefix: string, dir: string, id: string, more: Partial<HostOptions> = {}): Host {
  return createHost(
    {
      stateDir: `${dir}/${id}`,
      logger: false,
      handleSignals: false,
      defaults: { apiUrl: emulator.apiUrl },
      scale: redisHost({ url: redis().server.url, keyPrefix: prefix, leaseMs: 900, replicaId: id }),
      ...more,
    },
    [...apps.keys()].map((name) => ({ id: name, bot, token: async (n: string) => apps.get(n)?.token ?? '' })),
  );
}

it('hands half of its apps to a replica that joins, and keeps no stopped bot of those it handed over', async () => {
  const prefix = freshPrefix();
  state = tempDir('boardbot-redis-host-');
  const replica = (id: string) => replicaOf(prefix, state.dir, id);
  const a = replica('a');
  host = a;
  const running = (h: Host) => h.status().filter((s) => s.state === 'running').length;
  await a.start();
  await until(() => running(a) === APPS, 'every app on the first replica');
  const b = replica('b');
  try {
    await b.start();
    await until(() => running(a) === APPS / 2 && running(b) === APPS / 2, 'four apps on each replica');
    const handedOver = a.status().filter((s) => s.state === 'elsewhere');
    expect(handedOver).toHaveLength(APPS / 2);
    for (const { id } of handedOver) expect(a.app(id).bot).toBeUndefined();
    const answers = await askEvery(1);
    for (const name of apps.keys()) expect(answers.get(name)).toEqual([`${name} 1`]);
  } finally {
    await b.stop();
  }
});

it('spreads the apps over two replicas (the others `elsewhere`, ready), and hands them all to one when the other stops', async () => {
  const prefix = freshPrefix();
  state = tempDir('boardbot-redis-host-');
  const replica = (id: string) => replicaOf(prefix, state.dir, id, { health: { port: 0 } });
  const a = replica('a');
  const b = replica('b');
  host = a;
  try {
    await Promise.all([a.start(), b.start()]);
    const running = (h: Host) => h.status().filter((s) => s.state === 'running').length;
    await until(() => running(a) === APPS / 2 && running(b) === APPS / 2, 'four apps on each replica');
    expect(a.status().filter((s) => s.state === 'elsewhere')).toHaveLength(APPS / 2);
    const ready = await fetch(`${a.healthUrl}/readyz`);
    expect(ready.status).toBe(200);
    const answers = await askEvery(1);
    for (const name of apps.keys()) expect(answers.get(name)).toEqual([`${name} 1`]);
    // A stopping replica gives its apps up at once: the other takes them and answers for them.
    await b.stop();
    await until(() => running(a) === APPS, 'every app on the replica left');
    const after = await askEvery(2);
    for (const name of apps.keys()) expect(after.get(name)).toEqual([`${name} 2`]);
  } finally {
    await b.stop();
  }
});
