import type { Message } from '@boardbot/protocol';
import { until } from '@boardbot/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildHostReplica,
  type HostProcess,
  HostReplicas,
  HostWorld,
  type PlatformApp,
} from './support/host-cluster.js';

// CONTRACT (docs/hosting.md, "Across replicas"): the apps of a host are spread over its replicas on
// one Redis, each app on one replica at a time; a replica killed with SIGKILL while people post, its
// apps move to the replicas left, and every message and command is answered exactly once, with no
// 429 on the wire. One redis-server and one emulator for the file; each test its own key prefix.

const APPS = 50;
const LEASE_MS = 1500;
/** The apps of the four-replica test, and their leases' time (the default: 50 apps a replica on a 2-core machine). */
const MANY = 200;
const MANY_LEASE_MS = 3000;

let world: HostWorld;
let replicas: HostReplicas | undefined;

beforeAll(async () => {
  buildHostReplica();
  world = await HostWorld.start(MANY);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

afterEach(async () => {
  await replicas?.close();
  replicas = undefined;
});

/** What people posted to one app: its messages, and the commands they invoked. */
interface Posted {
  messages: Message[];
  interactions: string[];
}

/**
 * alice posts `rounds` times to every app's board, one app after the other in each round (every
 * fourth time a command); `during(round)` runs before each round.
 */
async function post(apps: readonly PlatformApp[], rounds: number, during: (round: number) => Promise<void>) {
  const posted = new Map<string, Posted>(apps.map((a) => [a.name, { messages: [], interactions: [] }]));
  const { control, seed } = world.emulator;
  for (let round = 0; round < rounds; round++) {
    await during(round);
    await Promise.all(
      apps.map(async (app) => {
        const mine = posted.get(app.name) as Posted;
        if (round % 4 === 3) {
          const n = mine.interactions.length;
          const body = { board_id: app.board.id, user_id: seed.alice.id, command: 'ask', options: { n } };
          mine.interactions.push((await control.invoke({ ...body, app_id: app.id })).id);
        } else {
          const content = `m ${app.name}-${round}`;
          mine.messages.push(await control.postMessage(app.board.id, { user_id: seed.alice.id, content }));
        }
      }),
    );
  }
  return posted;
}

/** What an app has not answered yet, and what it answered more than once. */
async function tally(app: PlatformApp, mine: Posted): Promise<{ missing: number; twice: string[] }> {
  const byBot = (await world.emulator.allMessages(app.board.id)).filter((m) => m.author === app.botUser);
  const count = new Map<string, number>();
  for (const m of byBot) {
    const to = m.reply_to ?? m.interaction?.id;
    if (to) count.set(to, (count.get(to) ?? 0) + 1);
  }
  const wanted = [...mine.messages.map((m) => m.id), ...mine.interactions];
  return {
    missing: wanted.filter((id) => !count.has(id)).length,
    twice: [...count].filter(([, n]) => n > 1).map(([id]) => id),
  };
}

async function tallyAll(posted: Map<string, Posted>, apps: readonly PlatformApp[]) {
  const all = await Promise.all(apps.map((a) => tally(a, posted.get(a.name) as Posted)));
  return { missing: all.reduce((s, t) => s + t.missing, 0), twice: all.flatMap((t) => t.twice) };
}

describe('a host of apps over replicas on Redis', () => {
  it('two hosts of 50 apps, one SIGKILLed while people post: its apps move, every effect once', async () => {
    const apps = world.apps.slice(0, APPS);
    const r = new HostReplicas(world, apps, LEASE_MS);
    replicas = r;
    const a = r.start();
    await a.joined();
    const b = r.start();
    await b.joined();
    // The first replica took every app; it hands half of them to the second.
    await until(
      async () => {
        const held = [...(await r.holders()).values()];
        return held.filter((h) => h === 'h0').length === APPS / 2 && held.filter((h) => h === 'h1').length === APPS / 2;
      },
      'the apps spread over both replicas',
      { timeoutMs: 60_000, intervalMs: 100, report: () => r.report() },
    );
    await until(() => r.reading([a, b]), 'every app reading its gateway on its replica', {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    const moved = [...(await r.holders())].filter(([, h]) => h === 'h1').map(([name]) => name);

    let killed: HostProcess | undefined;
    const posted = await post(apps, 12, async (round) => {
      if (round === 4) {
        await b.signal('SIGKILL');
        killed = b;
      }
    });
    expect(killed).toBe(b);
    // Its apps moved to the replica left, which reads their gateways.
    await until(async () => [...(await r.holders()).values()].every((h) => h === 'h0'), 'every app on h0', {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    await until(() => r.reading([a]), 'every app reading its gateway on h0', { timeoutMs: 30_000, intervalMs: 100 });
    await until(async () => (await tallyAll(posted, apps)).missing === 0, 'every message and command answered', {
      timeoutMs: 120_000,
      intervalMs: 500,
      report: async () => `${JSON.stringify(await tallyAll(posted, apps))}\n${r.report()}`,
    });
    await a.stop();
    const final = await tallyAll(posted, apps);
    expect(final).toEqual({ missing: 0, twice: [] });
    expect(moved.length).toBe(APPS / 2);
    expect(world.proxy.limited).toEqual([]);
  }, 300_000);

  it('200 apps over four replicas, a replica killed every 4 s and another started: every effect once', async ({
    annotate,
  }) => {
    const apps = world.apps.slice(0, MANY);
    const r = new HostReplicas(world, apps, MANY_LEASE_MS);
    replicas = r;
    let live = [r.start(), r.start(), r.start(), r.start()];
    await Promise.all(live.map((p) => p.joined()));
    await until(() => r.reading(live), 'every app reading its gateway on one of the replicas', {
      timeoutMs: 90_000,
      intervalMs: 200,
      report: () => r.report(),
    });
    const spread = new Map<string, number>();
    for (const h of (await r.holders()).values()) spread.set(h, (spread.get(h) ?? 0) + 1);

    // A round of posts every ROUND_MS; before every KILL_EVERY-th round, the replica holding the most
    // apps is killed with SIGKILL and a new one started.
    const ROUND_MS = 1000;
    const KILL_EVERY = 4;
    const startedAt = Date.now();
    let kills = 0;
    const posted = await post(apps, 28, async (round) => {
      const due = startedAt + round * ROUND_MS;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      if (round === 0 || round % KILL_EVERY !== 0) return;
      const holders = [...(await r.holders()).values()];
      const victim = [...live].sort(
        (x, y) =>
          holders.filter((h) => y.name.endsWith(` ${h}`)).length -
          holders.filter((h) => x.name.endsWith(` ${h}`)).length,
      )[0] as HostProcess;
      await victim.signal('SIGKILL');
      kills++;
      live = [...live.filter((p) => p !== victim), r.start()];
    });
    expect(kills).toBeGreaterThanOrEqual(6);
    await until(async () => (await tallyAll(posted, apps)).missing === 0, 'every message and command answered', {
      timeoutMs: 180_000,
      intervalMs: 1000,
      report: async () => `${JSON.stringify(await tallyAll(posted, apps))}\n${r.report()}`,
    });
    const drainedMs = Date.now() - startedAt;
    for (const p of live) await p.stop();
    const final = await tallyAll(posted, apps);
    expect(final).toEqual({ missing: 0, twice: [] });
    expect(world.proxy.limited).toEqual([]);
    const summary =
      `${MANY} apps over 4 replicas (first spread ${[...spread.values()].join('/')}), ${kills} kills; ` +
      `every answer ${drainedMs} ms after the first post`;
    process.stderr.write(`host replicas: ${summary}\n`);
    await annotate(summary);
  }, 420_000);
});
