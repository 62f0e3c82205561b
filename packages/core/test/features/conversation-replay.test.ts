import { randomUUID } from 'node:crypto';
import {
  type Bot,
  defineConversation,
  MemorySessionStore,
  type MessageContext,
  OnMessage,
  type PositionStore,
  refuse,
  type SessionStore,
  type SessionValue,
} from '@boardbot/core';
import type { Message } from '@boardbot/protocol';
import { type RecordingLogger, recordingLogger } from '@boardbot/test-support';
import { createTestPlatform, type TestPlatform } from '@boardbot/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { anotherInstance, HeldPositions } from './support.js';

// docs/conversations.md, "Handled again": a message whose answer was taken (its session update
// applied) but whose reply was never sent, handled again by the next process, gets the reply then;
// handled once more, the same reply under the same idempotency key (the platform keeps one).

const Signup = defineConversation({
  name: 'signup',
  questions: [
    'What is your name?',
    { ask: 'What is your team?', parse: (t) => (t.length > 1 ? t : refuse('A team has a longer name.')) },
  ],
  done: (ctx, [name, team]) => `Welcome ${name} of ${team}, ${ctx.authorName}!`,
});

class StartSignup {
  @OnMessage('!signup')
  start(ctx: MessageContext) {
    return ctx.session(Signup).start(ctx.message.id);
  }
}

const HANDLERS = [StartSignup, Signup.listener];

// Real timers; the time itself can be moved on, past a question's timeout.
let ahead = 0;
const clock = { now: () => Date.now() + ahead, setTimeout, clearTimeout } as never;

/** The shared store, seen by a process that dies right after its next conversation write went through. */
class DiesAfterWrite implements SessionStore {
  readonly description = 'memory, dies after a write';
  /** Settles when the write went through and the "process" died. */
  readonly died: Promise<void>;
  private dead!: () => void;

  constructor(private readonly inner: SessionStore) {
    this.died = new Promise((resolve) => {
      this.dead = resolve;
    });
  }

  read(key: string) {
    return this.inner.read(key);
  }

  async write(key: string, expected: number, value: SessionValue | null): Promise<boolean> {
    const written = await this.inner.write(key, expected, value);
    if (written && key.includes(':conversation:signup:')) {
      this.dead();
      throw new Error('the process died after this write');
    }
    return written;
  }
}

let platform: TestPlatform | undefined;
const running: Bot[] = [];
afterEach(async () => {
  ahead = 0;
  for (const bot of running.splice(0)) await bot.stop();
  await platform?.close();
  platform = undefined;
});

/** Runs one more instance of the bot (its errors are not answered: a process that died says nothing). */
async function instance(
  p: TestPlatform,
  sessions: SessionStore,
  position: PositionStore,
): Promise<[Bot, RecordingLogger]> {
  const log = recordingLogger();
  const bot = anotherInstance(p, { handlers: HANDLERS, sessions, position, logger: log, errorReply: false, clock });
  running.push(bot);
  await bot.start();
  return [bot, log];
}

/** The bot's replies to `message` on general, as the platform lists them. */
async function repliesTo(p: TestPlatform, message: Message): Promise<string[]> {
  const botUser = p.bot.app.bot_user_id;
  const all = await p.messages('general');
  return all.filter((m) => m.author === botUser && m.reply_to === message.id).map((m) => m.content ?? '');
}

/**
 * Alice answers `answers` one by one, the last one to a process that dies right after taking it
 * (`late`: after the question's timeout); then the next process handles that message again, and one
 * more after it.
 */
async function lastAnswerLost(answers: string[], late = false) {
  const sessions = new MemorySessionStore();
  const positions = new HeldPositions();
  const p = await createTestPlatform({ handlers: HANDLERS, sessions, position: positions, errorReply: false, clock });
  platform = p;
  const alice = p.person('alice');
  const start = await alice.say('!signup');
  expect((await p.bot.nextMessage({ replyTo: start })).content).toBe('What is your name?');
  for (const answer of answers.slice(0, -1)) {
    const said = await alice.say(answer);
    await p.bot.nextMessage({ replyTo: said });
  }
  await p.bot.runtime.stop();

  // Killed after the update, before the reply: its resume point stays before the message.
  positions.held = true;
  const dying = new DiesAfterWrite(sessions);
  const [doomed] = await instance(p, dying, positions);
  if (late) ahead = 10 * 60_000 + 1;
  const last = await alice.say(answers.at(-1) ?? '');
  await dying.died;
  await doomed.stop();
  const lost = await repliesTo(p, last);

  const logs: RecordingLogger[] = [];
  for (let i = 0; i < 2; i++) {
    const [next, log] = await instance(p, sessions, positions);
    logs.push(log);
    await positions.handled(last);
    await next.stop();
  }
  return {
    lost,
    replies: await repliesTo(p, last),
    errors: logs.flatMap((l) => l.lines.filter((line) => line.level === 'error' || line.level === 'warn')),
    refused: logs.some((l) => l.text().includes('idempotency_key_reused')),
  };
}

describe('a conversation message handled again after its answer was taken', () => {
  it('is answered with the next question, once, under the same key', async () => {
    const seen = await lastAnswerLost(['Alice']);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual(['What is your team?']);
    expect(seen.refused).toBe(false);
    expect(seen.errors).toEqual([]);
  });

  it("is answered with done's reply from the answers taken then, once, under the same key", async () => {
    const seen = await lastAnswerLost(['Alice', 'Platform']);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual(['Welcome Alice of Platform, Alice!']);
    expect(seen.refused).toBe(false);
    expect(seen.errors).toEqual([]);
  });

  it('is answered with the reason and the question again, once, when the answer was refused', async () => {
    const seen = await lastAnswerLost(['Alice', 'x']);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual(['A team has a longer name.\nWhat is your team?']);
    expect(seen.refused).toBe(false);
  });

  it('is answered with the tries note, once, when it was the last try', async () => {
    const seen = await lastAnswerLost(['Alice', 'x', 'y', 'z']);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual([
      'That signup ended: none of the answers could be taken. Start it again when you are ready.',
    ]);
    expect(seen.refused).toBe(false);
  });

  it('is answered with the cancel note, once, when it was a cancel word', async () => {
    const seen = await lastAnswerLost(['Alice', 'cancel']);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual(['Cancelled.']);
    expect(seen.refused).toBe(false);
  });

  it('is answered with the timeout note, once, when it came late', async () => {
    const seen = await lastAnswerLost(['Alice'], true);
    expect(seen.lost).toEqual([]);
    expect(seen.replies).toEqual(['That signup timed out before you answered; start it again when you are ready.']);
    expect(seen.refused).toBe(false);
  });
});

describe('a conversation stored by the previous version (no answeredBy, no ended)', () => {
  it('resumes: the next answer is taken, and once it is over a message is no answer', async () => {
    const sessions = new MemorySessionStore();
    const p = await createTestPlatform({ handlers: HANDLERS, sessions });
    platform = p;
    const alice = p.person('alice');
    const { id } = await alice.profile();
    const general = (await p.board('general')).id;
    // What the previous version wrote once Alice had answered the first question.
    const data = { step: 1, answers: ['Alice'], askedAt: Date.now(), startedBy: randomUUID() };
    const key = `${p.bot.app.id}:conversation:signup:user:${id}:board:${general}`;
    await sessions.write(key, 0, { data, shape: 1, expiresAt: Date.now() + 60_000, applied: ['AAAAAAAAAAAAAAAA'] });

    const team = await alice.say('Platform');
    expect((await p.bot.nextMessage({ replyTo: team })).content).toBe('Welcome Alice of Platform, Alice!');
    const after = await alice.say('hello');
    await p.settle();
    expect(await repliesTo(p, after)).toEqual([]);
  });
});
