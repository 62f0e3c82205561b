import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  defineSession,
  type EventContext,
  FileSessionStore,
  MemorySessionStore,
  type MessageContext,
  OnEvent,
  OnMessage,
  type SessionStore,
} from '@boardbot/core';
import { createTestPlatform } from '@boardbot/testing';
import { IsInt, IsString, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { anotherInstance, eventually, stateDir } from './support.js';

class Tally {
  @IsInt()
  @Min(0)
  count = 0;
}

const Tallies = defineSession(Tally, { per: 'user' });

class Counter {
  @OnMessage('tick')
  async tick(ctx: MessageContext) {
    await ctx.session(Tallies).update((t) => {
      t.count++;
    });
  }

  @OnMessage('!count')
  async show(ctx: MessageContext) {
    return `count ${(await ctx.session(Tallies).get()).count}`;
  }

  @OnMessage('!forget')
  async forget(ctx: MessageContext) {
    await ctx.session(Tallies).delete();
    return 'forgotten';
  }

  @OnMessage('!negative')
  async negative(ctx: MessageContext) {
    await ctx.session(Tallies).update((t) => {
      t.count = -1;
    });
  }
}

/** The stored count of alice's tally, read from the store as another process would. */
async function storedCount(store: SessionStore, appId: string, userId: string): Promise<number | undefined> {
  const record = await store.read(`${appId}:Tally:user:${userId}`);
  return (record?.value?.data as { count?: number } | undefined)?.count;
}

describe('sessions against the emulator', () => {
  it('counts 200 events of one person on two boards, handled by two bot instances sharing the file store, without losing one', async () => {
    const dir = await stateDir();
    const platform = await createTestPlatform({
      handlers: [Counter],
      sessions: new FileSessionStore(dir.path),
      emulator: { rateLimit: { requests: 100_000 } },
    });
    const replica = anotherInstance(platform, { handlers: [Counter], sessions: new FileSessionStore(dir.path) });
    try {
      await replica.start();
      const alice = platform.person('alice');
      const { id: aliceId } = await alice.profile();
      // Both instances receive every event and race on each update: the compare-and-set keeps every
      // increment, and the update key derived from the event applies each event once.
      await Promise.all(
        ['general', 'random'].map(async (board) => {
          for (let i = 0; i < 100; i++) await alice.say('tick', { board });
        }),
      );
      const store = new FileSessionStore(dir.path);
      // Each write is an fsync'd file under a lock, four writers on one key: a loaded machine needs time.
      await eventually(
        async () => (await storedCount(store, platform.bot.app.id, aliceId)) === 200,
        '200 ticks',
        50_000,
      );
      await platform.settle();
      await replica.idle();
      expect(await storedCount(store, platform.bot.app.id, aliceId)).toBe(200);
      const answer = await alice.say('!count');
      expect((await platform.bot.nextMessage({ replyTo: answer })).content).toBe('count 200');
    } finally {
      await replica.stop();
      await platform.close();
      await dir.remove();
    }
  }, 60_000);

  it('refuses an update that breaks the class constraints, deletes a session, and forgets one past its TTL', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock = { now: () => now, setTimeout, clearTimeout } as never;
    const platform = await createTestPlatform({ handlers: [Counter], sessions: new MemorySessionStore(), clock });
    try {
      const bob = platform.person('bob');
      await bob.say('tick');
      await bob.say('tick');
      const shown = await bob.say('!count');
      expect((await platform.bot.nextMessage({ replyTo: shown })).content).toBe('count 2');

      const bad = await bob.say('!negative');
      const apology = await platform.bot.nextMessage({ replyTo: bad });
      expect(apology.content).toMatch(/something went wrong/);
      expect(
        platform.logs.lines.some((l) => (l.err as { code?: string } | undefined)?.code === 'BOARDBOT_INVALID_SESSION'),
      ).toBe(true);
      const after = await bob.say('!count');
      expect((await platform.bot.nextMessage({ replyTo: after })).content).toBe('count 2');

      // A week (the default TTL) after the last write, the session is new again.
      now += 7 * 24 * 60 * 60 * 1000 + 1;
      const expired = await bob.say('!count');
      expect((await platform.bot.nextMessage({ replyTo: expired })).content).toBe('count 0');

      await bob.say('tick');
      const forgotten = await bob.say('!forget');
      expect((await platform.bot.nextMessage({ replyTo: forgotten })).content).toBe('forgotten');
      const fresh = await bob.say('!count');
      expect((await platform.bot.nextMessage({ replyTo: fresh })).content).toBe('count 0');
    } finally {
      await platform.close();
    }
  });
});

class TallyV2 {
  @IsInt()
  total = 0;
  @IsString()
  unit = 'ticks';
}

describe('a session whose shape changed between deploys', () => {
  it('is migrated by the rule given, or reset without one', async () => {
    const store = new MemorySessionStore();
    const old = defineSession(Tally, { per: 'user', name: 'Score' });
    const migrated = defineSession(TallyV2, {
      per: 'user',
      name: 'Score',
      version: 2,
      migrate: (stored, from) => (from === 1 ? { total: (stored as Tally).count } : undefined),
    });
    const reset = defineSession(TallyV2, { per: 'user', name: 'Score', version: 2 });
    class Deploy {
      @OnMessage('bump')
      async bump(ctx: MessageContext) {
        await ctx.session(old).update((t) => {
          t.count += 5;
        });
      }
      @OnMessage('read')
      async read(ctx: MessageContext) {
        const [a, b] = [await ctx.session(migrated).get(), await ctx.session(reset).get()];
        return `migrated ${a.total} ${a.unit}, reset ${b.total} ${b.unit}`;
      }
    }
    const platform = await createTestPlatform({ handlers: [Deploy], sessions: store });
    try {
      const alice = platform.person('alice');
      await alice.say('bump');
      const asked = await alice.say('read');
      expect((await platform.bot.nextMessage({ replyTo: asked })).content).toBe('migrated 5 ticks, reset 0 ticks');
      expect(platform.logs.lines.some((l) => /no migrate rule: the session is reset/.test(String(l.msg)))).toBe(true);
    } finally {
      await platform.close();
    }
  });
});

class Visits {
  @IsInt()
  @Min(0)
  n = 0;
}

const BoardVisits = defineSession(Visits, { per: 'board' });
const LocalVisits = defineSession(Visits, { per: 'user-on-board', name: 'local' });
const PersonalVisits = defineSession(Visits, { per: 'user', name: 'personal' });

/** The store the rival writer of `contend` writes to: the bot's own. */
let rival: SessionStore = new MemorySessionStore();

class Keyed {
  @OnMessage('visit')
  async visit(ctx: MessageContext) {
    // A change may return the new value instead of changing the one it gets.
    const board = await ctx.session(BoardVisits).update((v) => ({ n: v.n + 1 }));
    const local = await ctx.session(LocalVisits).update((v) => {
      v.n++;
    });
    return `board ${board.n}, here ${local.n}`;
  }

  @OnMessage('peek')
  async peek(ctx: MessageContext) {
    return `personal ${(await ctx.session(PersonalVisits).get()).n}`;
  }

  @OnEvent('message.create')
  async opened(_event: unknown, ctx: EventContext) {
    // An @OnEvent listener has no person: a per-person session cannot be opened.
    await ctx.session(PersonalVisits).update((v) => {
      v.n++;
    });
  }

  @OnMessage('contend')
  async contend(ctx: MessageContext) {
    const handle = ctx.session(PersonalVisits);
    const store = rival;
    await handle.update(async (v) => {
      // Another writer wins every race: it writes the session between this read and this write.
      const record = await store.read(handle.key);
      await store.write(handle.key, record?.version ?? 0, record?.value ?? null);
      v.n++;
    });
  }

  @OnMessage('many')
  async many(ctx: MessageContext) {
    for (let i = 0; i < 600; i++) {
      await ctx.session(LocalVisits).update((v) => {
        v.n++;
      });
    }
    return 'done';
  }
}

describe('session keys, reads and conflicts', () => {
  it('keys sessions <app id>:<name>:user:<id>:board:<id>, per board or per person on a board, and get() writes nothing', async () => {
    const store = new MemorySessionStore();
    const platform = await createTestPlatform({ handlers: [Keyed], sessions: store });
    try {
      const [alice, bob] = [platform.person('alice'), platform.person('bob')];
      expect((await platform.bot.nextMessage({ replyTo: await alice.say('visit') })).content).toBe('board 1, here 1');
      expect((await platform.bot.nextMessage({ replyTo: await bob.say('visit') })).content).toBe('board 2, here 1');
      const elsewhere = await bob.say('visit', { board: 'random' });
      expect((await platform.bot.nextMessage({ replyTo: elsewhere })).content).toBe('board 1, here 1');

      const app = platform.bot.app.id;
      const general = (await platform.board('general')).id;
      const { id: bobId } = await bob.profile();
      expect((await store.read(`${app}:Visits:board:${general}`))?.value?.data).toEqual({ n: 2 });
      expect((await store.read(`${app}:local:user:${bobId}:board:${general}`))?.value?.data).toEqual({ n: 1 });

      expect((await platform.bot.nextMessage({ replyTo: await bob.say('peek') })).content).toBe('personal 0');
      await platform.settle();
      expect(await store.read(`${app}:personal:user:${bobId}`)).toBeUndefined();
    } finally {
      await platform.close();
    }
  });

  it("fails a per-person session opened in an @OnEvent listener, or for a webhook's message, with BOARDBOT_SESSION_SCOPE", async () => {
    const failures: { code: string | undefined; kind: string }[] = [];
    const platform = await createTestPlatform({
      handlers: [Keyed],
      onError: (error, ctx) => failures.push({ code: (error as { code?: string }).code, kind: ctx.kind }),
    });
    try {
      await platform.person('alice').say('hello');
      await platform.settle();
      expect(failures).toEqual([{ code: 'BOARDBOT_SESSION_SCOPE', kind: 'event' }]);

      const general = (await platform.board('general')).id;
      failures.length = 0;
      // A per-board session opens for it; the per-person one on the same run cannot.
      await platform.control.postMessage(general, { webhook_name: 'ci', content: 'visit' });
      await platform.settle();
      expect(failures).toContainEqual({ code: 'BOARDBOT_SESSION_SCOPE', kind: 'message' });
    } finally {
      await platform.close();
    }
  });

  it('gives up after 50 attempts that another writer won, with BOARDBOT_SESSION_CONFLICT', async () => {
    const store = new MemorySessionStore();
    rival = store;
    const platform = await createTestPlatform({ handlers: [Keyed], sessions: store });
    try {
      const contend = await platform.person('alice').say('contend');
      expect((await platform.bot.nextMessage({ replyTo: contend })).content).toMatch(/^Sorry, something went wrong/);
      const failure = platform.logs
        .find({ level: 'error', msg: 'handler failed' })
        .find((l) => l.handler === 'Keyed.contend');
      expect(failure?.err).toMatchObject({ code: 'BOARDBOT_SESSION_CONFLICT' });
      expect(String((failure?.err as { message?: string }).message)).toMatch(/50/);
    } finally {
      await platform.close();
    }
  });

  it('keeps the keys of its last 512 updates, 16 characters each', async () => {
    const store = new MemorySessionStore();
    const platform = await createTestPlatform({ handlers: [Keyed], sessions: store });
    try {
      const alice = platform.person('alice');
      expect((await platform.bot.nextMessage({ replyTo: await alice.say('many') })).content).toBe('done');
      const general = (await platform.board('general')).id;
      const { id } = await alice.profile();
      const record = await store.read(`${platform.bot.app.id}:local:user:${id}:board:${general}`);
      expect(record?.value?.data).toEqual({ n: 600 });
      expect(record?.value?.applied).toHaveLength(512);
      expect(record?.value?.applied.every((k) => k.length === 16)).toBe(true);
    } finally {
      await platform.close();
    }
  });
});

describe('the default session store', () => {
  it('is a FileSessionStore under the state directory, in sessions/', async () => {
    const dir = await stateDir();
    const platform = await createTestPlatform({ handlers: [], start: false });
    const bot = anotherInstance(platform, { handlers: [Keyed], stateDir: dir.path });
    try {
      await bot.start();
      await platform.person('alice').say('visit');
      await eventually(
        async () => (await readdir(join(dir.path, 'sessions')).catch(() => [])).length >= 2,
        'two session files',
      );
      const store = new FileSessionStore(dir.path);
      const general = (await platform.board('general')).id;
      const app = (await platform.control.apps())[0]?.id;
      expect((await store.read(`${app}:Visits:board:${general}`))?.value?.data).toEqual({ n: 1 });
    } finally {
      await bot.stop();
      await platform.close();
      await dir.remove();
    }
  });
});

class Strict {
  @IsInt()
  @Min(0)
  count = 0;
}

describe('a stored value that no longer passes the constraints', () => {
  it('goes through migrate with its own version, or is reset without one', async () => {
    const store = new MemorySessionStore();
    // The same name and version, but the old class allowed negative counts.
    const loose = defineSession(Tally, { per: 'user', name: 'Strictness' });
    const seen: [unknown, number][] = [];
    const migrated = defineSession(Strict, {
      per: 'user',
      name: 'Strictness',
      migrate: (stored, from) => {
        seen.push([stored, from]);
        return { count: Math.abs((stored as Strict).count) };
      },
    });
    const reset = defineSession(Strict, { per: 'user', name: 'Strictness' });
    class Tighten {
      @OnMessage('loosen')
      async loosen(ctx: MessageContext) {
        // Tally has @Min(0) too: write the stored value as an older deploy without it would have.
        const handle = ctx.session(loose);
        const record = await store.read(handle.key);
        await store.write(handle.key, record?.version ?? 0, {
          data: { count: -3 },
          shape: 1,
          expiresAt: Date.now() + 60_000,
          applied: [],
        });
      }
      @OnMessage('read')
      async read(ctx: MessageContext) {
        const [a, b] = [await ctx.session(migrated).get(), await ctx.session(reset).get()];
        return `migrated ${a.count}, reset ${b.count}`;
      }
    }
    const platform = await createTestPlatform({ handlers: [Tighten], sessions: store });
    try {
      const alice = platform.person('alice');
      await alice.say('loosen');
      const asked = await alice.say('read');
      expect((await platform.bot.nextMessage({ replyTo: asked })).content).toBe('migrated 3, reset 0');
      expect(seen).toEqual([[{ count: -3 }, 1]]);
    } finally {
      await platform.close();
    }
  });
});
