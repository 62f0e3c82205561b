import { fileURLToPath } from 'node:url';
import { OnEvent } from '@boardbot/core';
import {
  buildProjects,
  LoggingProcess,
  type RedisServer,
  startRedisServer,
  type TempDir,
  tempDir,
  until,
} from '@boardbot/test-support';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// CONTRACT (docs/listening-to-messages.md "Patterns that cannot stall"): the attacks of the security
// review on /^(a+)+$/ against the fixture bot as real processes, one alone or two replicas on a real
// redis-server, over a real emulator on loopback. The bot runs in its own process so that a stall
// (were the guard broken) freezes it and not this test, whose health requests then time out.

const main = fileURLToPath(new URL('../fixtures/redos-bot/dist/main.js', import.meta.url));
const ATTACKS = [`${'a'.repeat(28)}!`, `${'a'.repeat(39)}!`];

beforeAll(() => buildProjects('test/fixtures/redos-bot'), 180_000);

/** The harness's own bot, never started: it only provides the emulator, people and boards. */
class NeverStarted {
  @OnEvent('never.sent')
  noop() {}
}

let platform: TestPlatform | undefined;
let redis: RedisServer | undefined;
let state: TempDir | undefined;
let bots: LoggingProcess[] = [];
afterEach(async () => {
  for (const bot of bots) await bot.kill();
  bots = [];
  await platform?.close();
  await redis?.close();
  state?.remove();
  platform = redis = state = undefined;
});

/** Starts the fixture bot (not awaited) on the platform, as a replica when `redisUrl` is given. */
function bot(mode: 're2' | 'allow' | 'js', redisUrl?: string): LoggingProcess {
  state ??= tempDir('boardbot-redos-');
  const started = new LoggingProcess({
    script: main,
    name: `bot ${bots.length}`,
    env: {
      BOARDBOT_TOKEN: platform?.token,
      BOARDBOT_API_URL: platform?.urls.apiUrl,
      BOARDBOT_STATE_DIR: state.dir,
      BOARDBOT_REDIS_URL: redisUrl,
      REDOS_MODE: mode,
    },
  });
  bots.push(started);
  return started;
}

/** The bot's `/healthz`, refused if it does not answer within a second. */
async function healthz(process: LoggingProcess): Promise<number> {
  const listening = await process.waitFor((l) => typeof l.url === 'string' && /^health endpoint/.test(l.msg ?? ''));
  const res = await fetch(`${listening.url as string}/healthz`, { signal: AbortSignal.timeout(1000) });
  await res.body?.cancel();
  return res.status;
}

/** Waits for the bot's reply to the message `id`; its text. */
async function replyTo(id: string): Promise<string | null> {
  const p = platform as TestPlatform;
  const botUser = p.bot.app.bot_user_id;
  const find = async () => (await p.messages()).find((m) => m.author === botUser && m.reply_to === id);
  await until(async () => (await find()) !== undefined, `a reply to ${id}`, {
    timeoutMs: 20_000,
    intervalMs: 100,
    report: async () => bots.map((b) => b.report()).join('\n'),
  });
  return (await find())?.content ?? null;
}

/** Sends both attacks, then an ordinary message: it is answered, and every bot's /healthz answers meanwhile. */
async function attack(targets: LoggingProcess[]): Promise<void> {
  const alice = (platform as TestPlatform).person('alice');
  for (const text of ATTACKS) await alice.say(text);
  const ordinary = await alice.say('m after the attacks');
  for (const target of targets) expect(await healthz(target)).toBe(200);
  expect(await replyTo(ordinary.id)).toBe('echo m after the attacks');
  for (const target of targets) expect(await healthz(target)).toBe(200);
}

describe('the attacks of the security review on /^(a+)+$/', () => {
  it('one process, on re2: the next message is answered and /healthz answers', async () => {
    platform = await createTestPlatform({ handlers: [NeverStarted], start: false });
    const one = bot('re2');
    await one.started();
    // The listener works on re2.
    expect(await replyTo((await platform.person('alice').say('aaaa')).id)).toBe('all a: 4');
    await attack([one]);
  });

  it('two replicas on Redis, on re2: the next message is answered and both /healthz answer', async () => {
    redis = await startRedisServer();
    platform = await createTestPlatform({ handlers: [NeverStarted], start: false });
    const replicas = [bot('re2', redis.url), bot('re2', redis.url)];
    for (const r of replicas) await r.started();
    await attack(replicas);
  });

  it('a default bot (the JavaScript engine) is refused at start: it never reads the attacks', async () => {
    platform = await createTestPlatform({ handlers: [NeverStarted], start: false });
    const refused = bot('js');
    expect(await refused.exited).not.toBe(0);
    const failed = refused.lines.find((l) => l.msg === 'start failed');
    expect(JSON.stringify(failed?.err)).toContain('BOARDBOT_UNSAFE_REGEX');
    expect(JSON.stringify(failed?.err)).toContain('Attacked.all: /^(a+)+$/ takes exponential time');
  });

  it('an opted-in vulnerable pattern (allowSlowRegex) starts and answers', async () => {
    platform = await createTestPlatform({ handlers: [NeverStarted], start: false });
    const opted = bot('allow');
    await opted.started();
    expect(await replyTo((await platform.person('alice').say('aaaaa')).id)).toBe('all a: 5');
  });
});

// Issue 40, finding 1: a validator's pattern on a text command's option, which the author accepted
// knowingly (@AllowSlowRegex), takes 40 s on the 3,993 letters a message leaves it. Every string
// option has a maximum length (1,000 by default), checked before any validator runs: the attack is
// refused at its length and the validator never sees it. Twenty attacks on one board are handled one
// after the other (per-board order), so another board's ping, sent after them all, is answered
// before the last of their refusals when none stalls the bot; one stall of the validator would hold
// the ping for longer than its wait.
describe('a validator the author allowed knowingly, on a text command option', () => {
  it("is bounded by the default maximum length: another board's ping is answered before the last attack's refusal", async () => {
    platform = await createTestPlatform({ handlers: [NeverStarted], start: false });
    const one = bot('re2');
    await one.started();
    const p = platform;
    expect(await replyTo((await p.person('alice').say('!paint teal')).id)).toBe('painted teal');
    const attack = `!paint ${'a'.repeat(3992)}!`;
    expect(attack).toHaveLength(4000);
    const attacks = await Promise.all(Array.from({ length: 20 }, () => p.person('alice').say(attack)));
    const ping = await p.person('bob').say('ping', { board: 'random' });
    expect((await p.bot.nextMessage({ replyTo: ping }, { timeoutMs: 20_000 })).content).toBe('pong');
    for (const sent of attacks) {
      expect(await replyTo(sent.id)).toBe('Sorry, !paint cannot run:\n- colour: expected at most 1000 characters');
    }
    // The platform's order: the pong, then the refusals still queued behind the board's earlier ones.
    const answered = p.bot.messages().map((m) => m.reply_to);
    const last = Math.max(...attacks.map((a) => answered.indexOf(a.id)));
    expect(answered.indexOf(ping.id)).toBeLessThan(last);
  });
});
