import {
  defineSession,
  FileSessionStore,
  MemorySessionStore,
  type MessageContext,
  OnMessage,
  type SessionStore,
} from '@boardbot/core';
import { createTestPlatform } from '@boardbot/testing';
import { IsObject } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { stateDir } from './support.js';

// docs/sessions.md, "Records": a session's plain objects have no prototype, and keep every key a
// person gives them. A poll that counts votes by the word typed broke on `constructor` (every read
// of the session threw in class-transformer), lost `toString` at the next read, and read
// Object.prototype for both before their first vote.

class Votes {
  @IsObject()
  counts: Record<string, number> = {};
}

const Poll = defineSession(Votes, { per: 'board' });

class Polling {
  @OnMessage(/^!vote \S+$/)
  async vote(ctx: MessageContext) {
    const word = (ctx.message.content ?? '').slice('!vote '.length);
    const before = (await ctx.session(Poll).get()).counts[word];
    const after = await ctx.session(Poll).update((v) => {
      v.counts[word] = (v.counts[word] ?? 0) + 1;
    });
    return `${word}: ${String(before)} -> ${after.counts[word]}`;
  }

  @OnMessage('!votes')
  async votes(ctx: MessageContext) {
    const { counts } = await ctx.session(Poll).get();
    return JSON.stringify(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  }
}

describe.each<[name: string, store: (dir: string) => SessionStore]>([
  ['memory', () => new MemorySessionStore()],
  ['file', (dir) => new FileSessionStore(dir)],
])("a session's record keyed by what people type (%s store)", (_name, store) => {
  it('takes __proto__, constructor, toString and hasOwnProperty as keys like any other, and reads no prototype', async () => {
    const dir = await stateDir();
    const platform = await createTestPlatform({ handlers: [Polling], sessions: store(dir.path) });
    try {
      const reply = async (text: string) => {
        const said = await platform.person('alice').say(text);
        return (await platform.bot.nextMessage({ replyTo: said })).content;
      };
      for (const word of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'pizza']) {
        expect(await reply(`!vote ${word}`)).toBe(`${word}: undefined -> 1`);
      }
      expect(await reply('!vote constructor')).toBe('constructor: 1 -> 2');
      expect(await reply('!vote toString')).toBe('toString: 1 -> 2');
      expect(await reply('!votes')).toBe(
        JSON.stringify([
          ['__proto__', 1],
          ['constructor', 2],
          ['hasOwnProperty', 1],
          ['pizza', 1],
          ['toString', 2],
        ]),
      );
    } finally {
      await platform.close();
      await dir.remove();
    }
  });
});
