import { defineSession, type Services, type SessionStore } from '@boardbot/core';
import { HandlerRun } from '@boardbot/core/internal';
import { type App, silentLogger } from '@boardbot/protocol';
import { IsInt, IsString, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../src/index.js';
import { useRedis } from './support/redis.js';
import { freshPrefix } from './support/replicas.js';

// docs/sessions.md, "What runs on a replay", with the sessions in Redis: an update already applied
// resolves with the value it wrote, and a record written before values were kept still reads.

const fixture = useRedis();

class Todo {
  @IsInt()
  @Min(0)
  next = 0;
  @IsString({ each: true })
  items: string[] = [];
}
const Todos = defineSession(Todo, { per: 'user' });

/** One run of a handler for `eventId` that adds an item (the same id again: a replay of it). */
function handler(store: SessionStore, eventId: string) {
  const run = new HandlerRun({
    event: { id: eventId, origin: 'live', keyBasis: eventId, replayed: false },
    handler: 'Todos.add',
    correlationId: 'c',
    log: silentLogger,
  });
  const session = Todos.open({
    app: { id: 'app-1' } as App,
    // The one service a session reads.
    services: { get: () => store } as unknown as Services,
    run,
    log: silentLogger,
    now: () => Date.now(),
    userId: 'u-1',
    boardId: undefined,
  });
  let calls = 0;
  return {
    session,
    get calls() {
      return calls;
    },
    add: async (text: string) => {
      const todo = await session.update((t) => {
        calls++;
        t.items.push(text);
        t.next++;
      });
      return `#${todo.next}: ${todo.items.join(', ')}`;
    },
  };
}

describe('a replayed update, RedisSessionStore', () => {
  it('resolves with the value it wrote though another update came after it, and does not run its callback', async () => {
    const store = new RedisSessionStore({ client: () => fixture().client, keyPrefix: freshPrefix() });
    expect(await handler(store, 'e1').add('milk')).toBe('#1: milk');
    expect(await handler(store, 'e2').add('eggs')).toBe('#2: milk, eggs');
    const again = handler(store, 'e1');
    expect(await again.add('milk')).toBe('#1: milk');
    expect(again.calls).toBe(0);
    expect(await handler(store, 'e3').add('tea')).toBe('#3: milk, eggs, tea');
  });

  it('reads a record stored by the previous version as it was, and replays its latest update with its value', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisSessionStore({ client: () => fixture().client, keyPrefix });
    await handler(store, 'old-1').add('milk');
    await handler(store, 'old-2').add('eggs');
    const key = handler(store, 'x').session.key;
    const stored = (await store.read(key))?.value;
    // The hash as the previous version wrote it: its value has `applied`, and nothing kept beside it.
    const previous = { data: stored?.data, shape: 1, expiresAt: stored?.expiresAt, applied: stored?.applied };
    await fixture().client.del(`${keyPrefix}:session:${key}`);
    await fixture().client.hset(`${keyPrefix}:session:${key}`, 'v', '2', 'value', JSON.stringify(previous));

    expect((await handler(store, 'x').session.get()).items).toEqual(['milk', 'eggs']);
    const latest = handler(store, 'old-2');
    expect(await latest.add('eggs')).toBe('#2: milk, eggs');
    expect(latest.calls).toBe(0);
    expect(await handler(store, 'new-1').add('tea')).toBe('#3: milk, eggs, tea');
    expect(await handler(store, 'old-2').add('eggs')).toBe('#2: milk, eggs');
  });
});
