import type { BotPart } from '@boardbot/core';
import { Command } from '@boardbot/core';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';

@Command({ name: 'ping', description: 'Ping' })
class Ping {
  run() {
    return 'pong';
  }
}

/** A part that writes down what the bot did to it, in one log shared by the test's parts. */
function recorded(name: string, log: string[], ready?: () => boolean): BotPart {
  return {
    name,
    start: () => {
      log.push(`start ${name}`);
    },
    stop: () => {
      log.push(`stop ${name}`);
    },
    close: () => {
      log.push(`close ${name}`);
    },
    ...(ready && { ready }),
  };
}

let platform: TestPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe("a bot's parts", () => {
  it('are started in order and stopped, then closed, in reverse; one added is placed where it is told', async () => {
    platform = await createTestPlatform({ handlers: [Ping], start: false });
    const { parts } = platform.bot.runtime;
    expect(parts.names()).toEqual([
      ...['log', 'rest', 'sessions', 'providers', 'signals', 'patterns', 'app', 'commands'],
      ...['dispatch', 'gateway', 'plugins', 'schedules'],
    ]);
    const log: string[] = [];
    await parts.add(recorded('cache', log), { after: 'sessions' });
    await parts.add(recorded('audit', log));
    // Nothing starts before the bot does.
    expect(log).toEqual([]);
    await platform.start();
    expect(log).toEqual(['start cache', 'start audit']);
    expect(parts.names()).toContain('cache');
    await platform.bot.runtime.stop();
    expect(log).toEqual(['start cache', 'start audit', 'stop audit', 'stop cache', 'close audit', 'close cache']);
  });

  it('can be added, replaced and removed while the bot runs, which goes on answering', async () => {
    platform = await createTestPlatform({ handlers: [Ping] });
    const { parts } = platform.bot.runtime;
    const log: string[] = [];
    await parts.add(recorded('cache', log));
    expect(log).toEqual(['start cache']);
    await parts.replace('cache', recorded('cache', log));
    // The new one starts before the old one goes: there is no moment without a cache.
    expect(log).toEqual(['start cache', 'start cache', 'stop cache', 'close cache']);
    await parts.replace('cache', recorded('memo', log));
    expect(parts.get('cache')).toBeUndefined();
    await parts.remove('memo');
    expect(log.slice(4)).toEqual(['start memo', 'stop cache', 'close cache', 'stop memo', 'close memo']);
    expect((await platform.person('alice').invoke('ping')).content).toBe('pong');
    await platform.bot.runtime.stop();
    expect(log).toHaveLength(9);
  });

  it('a part that fails to start fails the bot’s start; the parts started before it are stopped and closed', async () => {
    platform = await createTestPlatform({ handlers: [Ping], start: false });
    const log: string[] = [];
    const { parts } = platform.bot.runtime;
    await parts.add(recorded('early', log), { before: 'app' });
    await parts.add({ name: 'broken', start: () => Promise.reject(new Error('no database')) }, { before: 'app' });
    await expect(platform.start()).rejects.toThrow(/no database/);
    expect(log).toEqual(['start early', 'stop early', 'close early']);
    expect(platform.bot.runtime.state).toBe('stopped');
    expect(platform.logs.find({ msg: 'running as app' })).toEqual([]);
  });

  it('each give their readiness to /readyz, by name', async () => {
    let database = false;
    platform = await createTestPlatform({ handlers: [Ping], health: { port: 0 }, start: false });
    await platform.bot.runtime.parts.add({ name: 'database', ready: () => database });
    await platform.start();
    const readyz = async () => {
      const response = await fetch(`${platform?.bot.runtime.healthUrl}/readyz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await readyz()).toEqual({
      status: 503,
      body: { ready: false, checks: { database: false, gateway: true, commands: true, running: true } },
    });
    database = true;
    expect((await readyz()).status).toBe(200);
  });

  it('refuse a name the bot has, a place it has not, and a change while the bot stops', async () => {
    platform = await createTestPlatform({ handlers: [Ping] });
    const { parts } = platform.bot.runtime;
    await expect(parts.add({ name: 'gateway' })).rejects.toMatchObject({ code: 'BOARDBOT_INVALID_CONFIG' });
    await expect(parts.add({ name: 'x' }, { after: 'nowhere' })).rejects.toThrow(/no part named nowhere/);
    const stopping = platform.bot.runtime.stop();
    await expect(parts.remove('rest')).rejects.toMatchObject({ code: 'BOARDBOT_BOT_STATE' });
    await stopping;
  });
});
