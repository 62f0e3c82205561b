import {
  Command,
  type CommandContext,
  Cooldown,
  type MessageContext,
  memberRole,
  OnMessage,
  RequireRole,
  ROLE_CACHE_MS,
  UseGuards,
} from '@boardbot/core';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

@Command({ name: 'purge', description: 'Admins only' })
@RequireRole('admin')
class Purge {
  run(ctx: CommandContext) {
    return `purged by ${ctx.user.username}`;
  }
}

class Announcements {
  @OnMessage('!announce')
  @RequireRole((role) => role === 'owner', { reply: 'Only the owner announces.' })
  announce() {
    return 'announced';
  }

  @OnMessage('!hello')
  @RequireRole('member')
  hello(ctx: MessageContext) {
    return `hello ${ctx.authorName}`;
  }
}

let platform: TestPlatform;
beforeAll(async () => {
  platform = await createTestPlatform({ handlers: [Purge, Announcements] });
});
afterAll(() => platform?.close());

describe('@RequireRole against the emulator', () => {
  it('refuses a member a command that needs admin, saying which role it needs', async () => {
    const answer = await platform.person('mia', { role: 'member' }).invoke('purge');
    expect(answer.content).toBe('This needs the admin role on this board (you are a member).');
  });

  it('lets an admin, and an owner (owner includes admin), run it', async () => {
    expect((await platform.person('ada', { role: 'admin' }).invoke('purge')).content).toBe('purged by ada');
    expect((await platform.person('alice').invoke('purge')).content).toBe('purged by alice');
  });

  it('reads the members again before refusing, so a role just given counts at once', async () => {
    const sam = platform.person('sam', { role: 'member' });
    expect((await sam.invoke('purge')).content).toMatch(/needs the admin role/);
    // The member list is cached now; the promotion is seen because a refusal reads it again.
    await sam.join('general', 'admin');
    expect((await sam.invoke('purge')).content).toBe('purged by sam');
  });

  it('applies a custom predicate and its reply to a message listener', async () => {
    const bob = platform.person('bob');
    const refused = await bob.say('!announce');
    expect((await platform.bot.nextMessage({ replyTo: refused })).content).toBe('Only the owner announces.');
    const allowed = await platform.person('alice').say('!announce');
    expect((await platform.bot.nextMessage({ replyTo: allowed })).content).toBe('announced');
    const hello = await bob.say('!hello');
    expect((await platform.bot.nextMessage({ replyTo: hello })).content).toBe('hello Bob');
  });
});

describe('the role cache', () => {
  it('lets a person just demoted keep the role until ROLE_CACHE_MS has passed on the bot’s clock, then refuses', async () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    const own = await createTestPlatform({ handlers: [Purge], clock });
    try {
      const dan = own.person('dan', { role: 'admin' });
      expect((await dan.invoke('purge')).content).toBe('purged by dan');
      await dan.join('general', 'member');
      // Cached: the platform sends no member events, so the demotion is not seen yet.
      expect((await dan.invoke('purge')).content).toBe('purged by dan');
      await own.settle();
      clock.advance(ROLE_CACHE_MS + 1);
      expect((await dan.invoke('purge')).content).toBe('This needs the admin role on this board (you are a member).');
    } finally {
      await own.close();
    }
  });
});

/** Which of the method guards of Staff ran, by person. */
const methodGuardRan: string[] = [];

/** On the class: each listener needs admin; the board's one use a minute is only taken once it passed. */
@RequireRole('admin')
@Cooldown({ ms: 60_000, per: 'board' })
class Staff {
  @OnMessage('!staff-a')
  a() {
    return 'staff a';
  }

  @OnMessage('!staff-b')
  @UseGuards((ctx) => {
    methodGuardRan.push(ctx.kind === 'message' ? (ctx.author?.username ?? '') : '');
    return true;
  })
  b() {
    return 'staff b';
  }
}

/** The roles the predicate below was given. */
const rolesSeen: (string | undefined)[] = [];

class WhoAmI {
  @OnMessage('!role')
  async role(ctx: MessageContext) {
    return `role: ${(await memberRole(ctx)) ?? 'none'}`;
  }

  @OnMessage('!deploy')
  @RequireRole(
    (role) => {
      rolesSeen.push(role);
      return role !== undefined;
    },
    { reply: 'Members only.' },
  )
  deploy() {
    return 'deploying';
  }
}

describe('@RequireRole on a class, with other guards and a cooldown', () => {
  it('refuses each listener of the class with the default words, before the method’s guards and the cooldown', async () => {
    const own = await createTestPlatform({ handlers: [Staff] });
    try {
      const bob = own.person('bob');
      for (const text of ['!staff-a', '!staff-b']) {
        const refused = await bob.say(text);
        expect((await own.bot.nextMessage({ replyTo: refused })).content).toBe(
          'This needs the admin role on this board (you are a member).',
        );
      }
      // Bob's refusals neither ran the method's guard nor used up the board's window.
      expect(methodGuardRan).toEqual([]);
      const alice = own.person('alice');
      expect((await own.bot.nextMessage({ replyTo: await alice.say('!staff-b') })).content).toBe('staff b');
      expect(methodGuardRan).toEqual(['alice']);
      // The class's cooldown counts each listener apart: !staff-a still has its use.
      expect((await own.bot.nextMessage({ replyTo: await alice.say('!staff-a') })).content).toBe('staff a');
    } finally {
      await own.close();
    }
  });
});

describe('memberRole(ctx)', () => {
  it('gives a handler, and a @RequireRole predicate, the role of the person on the board, and none for a webhook', async () => {
    const own = await createTestPlatform({ handlers: [WhoAmI] });
    try {
      expect((await own.bot.nextMessage({ replyTo: await own.person('alice').say('!role') })).content).toBe(
        'role: owner',
      );
      expect((await own.bot.nextMessage({ replyTo: await own.person('bob').say('!role') })).content).toBe(
        'role: member',
      );
      const general = (await own.board('general')).id;
      const hook = await own.control.postMessage(general, { webhook_name: 'ci', content: '!role' });
      expect((await own.bot.nextMessage({ replyTo: hook })).content).toBe('role: none');

      // A predicate is given undefined for someone who is not a member (here, a webhook).
      const deploy = await own.control.postMessage(general, { webhook_name: 'ci', content: '!deploy' });
      expect((await own.bot.nextMessage({ replyTo: deploy })).content).toBe('Members only.');
      expect(rolesSeen).toEqual([undefined, undefined]);
      const byBob = await own.person('bob').say('!deploy');
      expect((await own.bot.nextMessage({ replyTo: byBob })).content).toBe('deploying');
      expect(rolesSeen.at(-1)).toBe('member');
    } finally {
      await own.close();
    }
  });
});
