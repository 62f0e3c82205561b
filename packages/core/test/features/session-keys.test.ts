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
import { IsInt, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { anotherInstance, eventually, stateDir } from './support.js';

// docs/sessions.md, "Keys", "Updates never get lost" and "Stores": the store key of each per, the
// scope error, the conflict limit, the update keys a session keeps, and the default store.

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
        // Session files only: a write's lock directory and temporary file come and go beside them.
        async () =>
          (await readdir(join(dir.path, 'sessions')).catch(() => [])).filter((n) => n.endsWith('.json')).length >= 2,
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
