import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineSession, FileSessionStore, MemorySessionStore, type SessionStore } from '@boardbot/core';
import { HandlerRun } from '@boardbot/core/internal';
import type { App } from '@boardbot/protocol';
import { recordingLogger, tempDir } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing/clock';
import { IsInt, IsString, Min } from 'class-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { Services } from '../../src/kernel/services.js';
import { SESSION_STORE } from '../../src/sessions/service.js';
import { WRITTEN_BYTES, WRITTEN_KEPT } from '../../src/sessions/written-values.js';

// docs/sessions.md, "What runs on a replay": an update already applied is not applied again, and
// resolves with the value it wrote then, whatever was written since; within a bounded window.

class Todo {
  @IsInt()
  @Min(0)
  next = 0;
  @IsString({ each: true })
  items: string[] = [];
}
const Todos = defineSession(Todo, { per: 'user-on-board' });

const NOW = Date.parse('2026-03-02T09:00:00Z');
const dir = tempDir('boardbot-session-replay-');
afterAll(() => dir.remove());

/** One run of the `Todos.add` handler for `eventId` (the same id again: a replay of it). */
function handler(store: SessionStore, eventId: string) {
  const log = recordingLogger();
  const run = new HandlerRun({
    event: { id: eventId, origin: 'live', keyBasis: eventId, replayed: false },
    handler: 'Todos.add',
    correlationId: 'c',
    log,
  });
  const session = Todos.open({
    app: { id: 'app-1' } as App,
    services: new Services().set(SESSION_STORE, store),
    run,
    log,
    now: () => NOW,
    userId: 'u-1',
    boardId: 'b-1',
  });
  let calls = 0;
  return {
    log,
    session,
    get calls() {
      return calls;
    },
    /** Adds an item, as a handler would, and answers with what `update()` resolved with. */
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

const stores: Record<string, () => SessionStore> = {
  MemorySessionStore: () => new MemorySessionStore(),
  // A directory of its own for each test: the sessions' keys are the same in every test.
  FileSessionStore: () => new FileSessionStore(join(dir.dir, randomUUID()), { clock: new TestClock(NOW) }),
};

for (const [name, make] of Object.entries(stores)) {
  describe(`a replayed update, ${name}`, () => {
    it('resolves with the value it wrote though another update came after it, and does not run its callback', async () => {
      const store = make();
      expect(await handler(store, 'e1').add('milk')).toBe('#1: milk');
      expect(await handler(store, 'e2').add('eggs')).toBe('#2: milk, eggs');
      const again = handler(store, 'e1');
      expect(await again.add('milk')).toBe('#1: milk');
      expect(again.calls).toBe(0);
      const latest = handler(store, 'e2');
      expect(await latest.add('eggs')).toBe('#2: milk, eggs');
      expect(latest.calls).toBe(0);
      expect(await handler(store, 'e3').add('tea')).toBe('#3: milk, eggs, tea');
    });

    it('leaves get() reading the session as it is now, and applies again once the session was deleted', async () => {
      const store = make();
      await handler(store, 'g1').add('milk');
      await handler(store, 'g2').add('eggs');
      const again = handler(store, 'g1');
      expect((await again.session.get()).items).toEqual(['milk', 'eggs']);
      await handler(store, 'g3').session.delete();
      expect(await again.add('milk')).toBe('#1: milk');
      expect(again.calls).toBe(1);
    });

    it(`keeps the values of the last ${WRITTEN_KEPT} updates before the latest; an older replay resolves with the current value and warns`, async () => {
      const store = make();
      for (let i = 0; i <= WRITTEN_KEPT + 1; i++) await handler(store, `w${i}`).add(`i${i}`);
      const kept = handler(store, 'w2');
      expect(await kept.add('i2')).toBe('#3: i0, i1, i2');
      const gone = handler(store, 'w0');
      expect(await gone.add('i0')).toBe(
        `#${WRITTEN_KEPT + 2}: ${Array.from({ length: WRITTEN_KEPT + 2 }, (_, i) => `i${i}`).join(', ')}`,
      );
      expect(gone.calls).toBe(0);
      expect(gone.log.lines.map((l) => l.level)).toEqual(['warn']);
    });

    it(`keeps no more than ${WRITTEN_BYTES / 1024} KiB of them`, async () => {
      const store = make();
      // Two of them fit in the bound, three do not.
      const big = 'x'.repeat(WRITTEN_BYTES * 0.4);
      await handler(store, 'b1').add(big);
      await handler(store, 'b2').add(big);
      await handler(store, 'b3').add('small');
      // b2 wrote two big items: with b1's one, more than the bound; b2's own is kept, b1's is not.
      expect(await handler(store, 'b2').add(big)).toBe(`#2: ${big}, ${big}`);
      const dropped = handler(store, 'b1');
      expect(await dropped.add(big)).toBe(`#3: ${big}, ${big}, small`);
      expect(dropped.calls).toBe(0);
    });
  });
}

describe('a session stored by the previous version (no values kept beside its keys)', () => {
  it('reads as it was, replays its latest update with its value, and goes on', async () => {
    // First the format written before this change, byte for byte: a file with `applied` only.
    const state = tempDir('boardbot-session-v1-');
    try {
      const store = new FileSessionStore(state.dir, { clock: new TestClock(NOW) });
      const probe = new MemorySessionStore();
      await handler(probe, 'old-1').add('milk');
      await handler(probe, 'old-2').add('eggs');
      const applied = (await probe.read(handler(probe, 'x').session.key))?.value?.applied;
      const key = handler(store, 'x').session.key;
      await mkdir(join(state.dir, 'sessions'), { recursive: true });
      const file = `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`;
      const value = { data: { next: 2, items: ['milk', 'eggs'] }, shape: 1, expiresAt: NOW + 60_000, applied };
      await writeFile(join(state.dir, 'sessions', file), `${JSON.stringify({ format: 1, key, version: 2, value })}\n`);

      expect(await handler(store, 'x').session.get()).toEqual(Object.assign(new Todo(), value.data));
      const latest = handler(store, 'old-2');
      expect(await latest.add('eggs')).toBe('#2: milk, eggs');
      expect(latest.calls).toBe(0);
      expect(await handler(store, 'new-1').add('tea')).toBe('#3: milk, eggs, tea');
      // Its value is the first one kept beside a key: replayed, it resolves with it.
      expect(await handler(store, 'old-2').add('eggs')).toBe('#2: milk, eggs');
    } finally {
      state.remove();
    }
  });
});

describe('docs/sessions.md', () => {
  it('gives the window of kept values the code keeps', async () => {
    const page = (await readFile(new URL('../../../../docs/sessions.md', import.meta.url), 'utf8')).replace(
      /\s+/g,
      ' ',
    );
    expect(page).toContain(`for its last ${WRITTEN_KEPT} updates`);
    expect(page).toContain(`at most ${WRITTEN_BYTES / 1024} KiB of JSON`);
    expect(page).toContain(`more than ${WRITTEN_KEPT} updates of the session since`);
  });
});
