import {
  defineSession,
  FileSessionStore,
  MemorySessionStore,
  type MessageContext,
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
