import {
  Command,
  type CommandContext,
  type MessageContext,
  OnMessage,
  RequireRole,
  ROLE_CACHE_MS,
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
