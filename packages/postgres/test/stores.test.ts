import { randomUUID } from 'node:crypto';
import { Cooldown, createBot, defineSession, type MessageContext, OnMessage } from '@boardbot/core';
import { silentLogger } from '@boardbot/protocol';
import { until, vacantPort } from '@boardbot/test-support';
import { createTestPlatform } from '@boardbot/testing';
import { IsInt, Min } from 'class-validator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStores } from '../src/index.js';
import { freshSchema, usePostgres } from './support/postgres.js';

// What the PostgreSQL stores do beyond the contracts (contracts.test.ts): exact values, the sweep,
// and a bot that keeps its state there across a restart.
const fixture = usePostgres();
let admin: postgres.Sql;
beforeAll(() => {
  admin = postgres(fixture().server.url, { onnotice: () => {} });
});
afterAll(() => admin?.end());

const value = (data: unknown, expiresAt: number | null) => ({ data, shape: 1, expiresAt, applied: ['e1'] });

describe('PostgresSessionStore', () => {
  it('reads back exactly the JSON it was given: key order, a NUL character, astral characters, large numbers', async () => {
    const { sessions } = fixture().stores();
    const data = {
      z: 1,
      a: 'nul \u0000 here',
      emoji: '🎲 \ud83d\ude00',
      big: 2 ** 53 - 1,
      tiny: 1e-300,
      nested: [{ b: 1, a: 2 }],
    };
    await sessions.write('exact', 0, value(data, null));
    const read = await sessions.read('exact');
    expect(JSON.stringify(read?.value)).toBe(JSON.stringify(value(data, null)));
  });

  it('sweeps a record a day after it expired and a deleted one a week after, keeping the rest', async () => {
    const { sessions, sweep } = fixture().stores();
    const now = Date.now();
    await sessions.write('expired', 0, value(1, now - 25 * 60 * 60 * 1000));
    await sessions.write('expiring', 0, value(2, now - 23 * 60 * 60 * 1000));
    await sessions.write('forever', 0, value(3, null));
    await sessions.write('deleted', 0, value(4, null));
    await sessions.write('deleted', 1, null);
    await sweep();
    expect(await sessions.read('expired')).toBeUndefined();
    expect((await sessions.read('expiring'))?.version).toBe(1);
    expect(await sessions.read('deleted')).toEqual({ version: 2, value: null });
    expect(await sessions.sweep(now + 8 * 24 * 60 * 60 * 1000)).toBe(2);
    expect(await sessions.read('deleted')).toBeUndefined();
    expect(await sessions.read('forever')).toEqual({ version: 1, value: value(3, null) });
  });
});

class Tally {
  @IsInt()
  @Min(0)
  count = 0;
}
const Tallies = defineSession(Tally, { per: 'user' });

class Counter {
  @OnMessage(/^count/)
  async count(ctx: MessageContext) {
    const tally = await ctx.session(Tallies).update((t) => {
      t.count++;
    });
    return `count ${tally.count}`;
  }

  @OnMessage('!wave')
  @Cooldown({ ms: 24 * 60 * 60 * 1000 })
  wave(ctx: MessageContext) {
    return `wave ${ctx.authorName}`;
  }
}

describe('a bot whose state is in PostgreSQL', () => {
  it('resumes, counts on and holds who was held after a restart, and closes its connections when it stops', async () => {
    const schema = freshSchema();
    const first = fixture().stores({ schema });
    const platform = await createTestPlatform({
      handlers: [Counter],
      sessions: first.sessions,
      position: first.position,
      cooldowns: first.cooldowns,
    });
    const connections = async () =>
      (
        await admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${`boardbot (${schema})`}`
      )[0]?.n as number;
    try {
      const alice = platform.person('alice');
      const reply = async (text: string) =>
        (await platform.bot.nextMessage({ replyTo: await alice.say(text) })).content;
      expect(await reply('count')).toBe('count 1');
      expect(await reply('!wave')).toBe('wave Alice');
      expect(await connections()).toBeGreaterThan(0);
      await platform.bot.runtime.stop();
      await until(async () => (await connections()) === 0, 'the stopped bot closed its connections');

      // Posted while no bot runs; the next process (new stores on the same schema) picks it up.
      const whileDown = await alice.say(`count while down ${randomUUID()}`);
      const second = fixture().stores({ schema });
      const next = createBot({
        token: platform.token,
        apiUrl: platform.urls.apiUrl,
        handlers: [Counter],
        logger: silentLogger,
        handleSignals: false,
        sessions: second.sessions,
        position: second.position,
        cooldowns: second.cooldowns,
      });
      await next.start();
      try {
        expect((await platform.bot.nextMessage({ replyTo: whileDown })).content).toBe('count 2');
        const held = await alice.say('!wave');
        expect(await reply('count')).toBe('count 3');
        expect(platform.bot.messages({ replyTo: held })).toHaveLength(0);
      } finally {
        await next.stop();
      }
      await until(async () => (await connections()) === 0, 'the second bot closed its connections');
    } finally {
      await platform.close();
    }
  });
});

describe('when PostgreSQL is not there', () => {
  it('makes the bot’s start() fail with BOARDBOT_POSTGRES_UNAVAILABLE', async () => {
    const platform = await createTestPlatform({ handlers: [Counter], start: false });
    const pg = postgresStores({ url: `postgres://bot:pw@127.0.0.1:${await vacantPort()}/app` });
    const bot = createBot({
      token: platform.token,
      apiUrl: platform.urls.apiUrl,
      handlers: [Counter],
      logger: silentLogger,
      handleSignals: false,
      sessions: pg.sessions,
      position: pg.position,
    });
    try {
      await expect(bot.start()).rejects.toMatchObject({ code: 'BOARDBOT_POSTGRES_UNAVAILABLE' });
    } finally {
      await bot.stop().catch(() => {});
      await platform.close();
    }
  });

  it('works again once the server is back, on the same stores (the client reconnects)', async () => {
    const { sessions } = fixture().stores();
    await sessions.write('k', 0, value(1, null));
    await fixture().server.stop();
    await expect(sessions.read('k')).rejects.toThrow();
    await fixture().server.start();
    expect(await sessions.write('k', 1, value(2, null))).toBe(true);
    expect((await sessions.read('k'))?.version).toBe(2);
  });
});
