import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  Command,
  type CommandContext,
  Cooldown,
  type CooldownStore,
  createBot,
  defineSession,
  type EventContext,
  Every,
  MemorySessionStore,
  type MessageContext,
  OnEvent,
  OnMessage,
  Option,
  type ScheduleContext,
  Subcommand,
  UseGuards,
} from '@boardbot/core';
import { Cooldowns } from '@boardbot/core/internal';
import type { GatewayDispatch } from '@boardbot/gateway';
import type { Message } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import { createTestPlatform, TestClock, type TestPlatform } from '@boardbot/testing';
import { Contains, IsInt, IsOptional, IsString } from 'class-validator';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The keys a run of every kind writes with, recorded on the wire against the real emulator: the
// Idempotency-Key of each write (its ordinal or its name), the named keys a handler asks for, the
// cooldown's use id, a session update's key and a streamed answer's part keys. Restarts and rolling
// deploys hold an old process's keys against a new one's, so this recording is the fixture every
// later version must reproduce byte for byte (write it again only on purpose: BOARDBOT_RECORD_KEYS=1).
// Ids the platform makes up (message ids, event ids) are named by what they are, so the fixture is
// stable from run to run; everything else in a key is as sent.
const FIXTURE = new URL('./fixtures/run-keys.json', import.meta.url);

/** What the handlers noted: named keys, and each session update's key with its preimage. */
const noted: string[] = [];
const sessionKeys: { store: string; preimage: string }[] = [];

class Tally {
  n = 0;
}
const TALLY = defineSession(Tally, { per: 'user' });

class NoteOptions {
  @Option({ description: 'What to note' }) @IsOptional() @IsString() text?: string;
}

@Command({ name: 'golden', description: 'Writes through every route', text: true })
class Golden {
  async run(ctx: CommandContext) {
    noted.push(`${ctx.via} named ${ctx.idempotencyKey('charge')}`);
    await ctx.reply('reply');
    await ctx.followUp('follow-up');
    // Two writes side by side take their ordinals in the order they were made.
    await Promise.all([ctx.send('side a'), ctx.send('side b')]);
    const sent = await ctx.rest.sendMessage(ctx.boardId, { content: 'through rest' });
    await ctx.rest.editMessage(ctx.boardId, sent.id, { content: 'through rest, edited' });
    // A write with its own key takes no ordinal: the next one has the one after the edit's.
    await ctx.rest.sendMessage(ctx.boardId, { content: 'own key' }, { idempotencyKey: ctx.idempotencyKey('own') });
    await ctx.rest.deleteMessage(ctx.boardId, sent.id);
    const tally = ctx.session(TALLY);
    await tally.update((t) => {
      t.n++;
    });
    sessionKeys.push({ store: tally.key, preimage: ctx.idempotencyKey(`session:${tally.key}:0`) });
    return 'returned after replying';
  }
}

class ShoutOptions {
  @Option({ description: 'Words with an x' }) @IsString() @Contains('x') words!: string;
}

@Command({ name: 'shout', description: 'Refuses words without an x', options: ShoutOptions, text: true })
class Shout {
  run(_ctx: CommandContext, { words }: ShoutOptions) {
    return words;
  }
}

@Command({ name: 'vip', description: 'Refused by its guard' })
@UseGuards(() => false)
class Vip {
  run() {
    return 'never';
  }
}

@Command({ name: 'daily', description: 'Once a minute' })
@Cooldown({ ms: 60_000, per: 'user' })
class Daily {
  run() {
    return 'daily bonus';
  }
}

@Command({ name: 'fail', description: 'Answers, then fails' })
class Fail {
  async run(ctx: CommandContext) {
    await ctx.reply('before the failure');
    throw new Error('failed on purpose');
  }
}

@Command({ name: 'note', description: 'Notes', text: true })
class Note {
  @Subcommand({ name: 'add', description: 'Adds a note', options: NoteOptions })
  add() {
    return 'noted';
  }
}

class DiceOptions {
  @Option({ description: 'Sides' }) @IsInt() sides!: number;
}

@Command({ name: 'echo', description: 'Follows its edits', options: DiceOptions, text: true, editable: true })
class Echo {
  run(_ctx: CommandContext, { sides }: DiceOptions) {
    return `echo ${sides}`;
  }
}

/** A streamed answer long enough for two messages. */
const streamed = 'x'.repeat(5000);

class Listeners {
  @OnMessage(/^hello/)
  async hello(ctx: MessageContext) {
    noted.push(`listener named ${ctx.idempotencyKey('charge')}`);
    await ctx.reply('hi');
    await ctx.send('also on the board');
    return 'returned after replying';
  }

  @OnMessage(/^fix /, { editable: true })
  async fix(ctx: MessageContext) {
    await ctx.reply(`fixed: ${ctx.message.content}`);
    await ctx.reply(`and again: ${ctx.message.content}`);
  }

  @OnMessage(/^burst/, { burst: { mode: 'debounce', ms: 1000 } })
  burst(ctx: MessageContext) {
    return `burst of ${ctx.skipped.length + 1}`;
  }

  @OnMessage(/^stream/)
  async stream(ctx: MessageContext) {
    await ctx.stream(
      (async function* () {
        yield streamed;
      })(),
      { throttleMs: 0 },
    );
  }

  @OnMessage(/^guarded/)
  @UseGuards(() => 'not here')
  guarded() {
    return 'never';
  }

  @OnEvent('message.delete')
  async gone(data: { message: Message }, ctx: EventContext) {
    if (data.message.author === ctx.app.bot_user_id) return;
    await ctx.send(data.message.board_id, 'a message went');
  }
}

class Ticker {
  static board = '';
  @Every('10m')
  async tick(ctx: ScheduleContext) {
    await ctx.send(Ticker.board, 'tick');
  }
}

/** One write as it left the bot. */
interface Write {
  method: string;
  path: string;
  key: string | null;
  content: string | null;
}

/** An undici dispatcher that notes every write (POST, PATCH, DELETE) it sends on. */
function recordingAgent(writes: Write[]): Dispatcher {
  return new Agent().compose((dispatch) => (opts, handler) => {
    if (opts.method !== 'GET' && opts.method !== 'PUT') {
      const headers = (opts.headers ?? {}) as Record<string, string | string[] | undefined>;
      const key = headers['idempotency-key'] ?? headers['Idempotency-Key'];
      const body = typeof opts.body === 'string' ? (JSON.parse(opts.body) as { content?: string }) : undefined;
      writes.push({
        method: opts.method,
        path: opts.path,
        key: typeof key === 'string' ? key : null,
        content: body?.content ?? null,
      });
    }
    return dispatch(opts, handler);
  });
}

describe('the keys of a run of every kind', () => {
  const writes: Write[] = [];
  const names = new Map<string, string>();
  /** Each event the bot received, by id: what it is, named when the key is read (its message may be named later). */
  const events = new Map<string, () => string>();
  const clock = new TestClock('2026-03-02T08:59:30Z');
  const store = new MemorySessionStore();
  const useIds: string[] = [];
  const recorded: Record<string, string[]> = {};
  let platform: TestPlatform;
  let rest: RestClient;

  /** A key, with the ids the platform made up named by what they are. */
  const normalised = (key: string): string =>
    key
      .replace(/^bb1:m\.([0-9a-f-]{36}):/, (_, id: string) => `bb1:m.{${names.get(id) ?? 'unknown message'}}:`)
      .replace(/^bb1:(\d+):/, (_, id: string) => `bb1:{${events.get(id)?.() ?? 'unknown event'}}:`)
      .replace(/:n:(stream\.\d+\.p\d+)\.e\d+\.[0-9a-f]{8}$/, ':n:$1.e*');

  /** Runs one step and records the keys its writes carried, sorted (writes side by side arrive in either order). */
  async function step(name: string, act: () => Promise<unknown>): Promise<void> {
    writes.length = 0;
    noted.length = 0;
    useIds.length = 0;
    await act();
    await platform.settle();
    const lines = writes.map((w) => {
      const path = w.path.replace(/[0-9a-f-]{36}/g, ':id').replace(/interactions\/[^/]+$/, 'interactions/:token');
      const content = w.content === null ? '' : ` "${w.content.slice(0, 24)}"`;
      return `${w.method} ${path.replace(/^\/api\/v1/, '')}${content} ${w.key === null ? '-' : normalised(w.key)}`;
    });
    recorded[name] = [
      // A streamed answer's edits are as many as its text's arrivals made: their keys' form is what counts.
      ...lines.filter((line, i) => !line.endsWith('.e*') || lines.indexOf(line) === i).sort(),
      ...noted.map((n) => n.replace(/bb1:\S+/, normalised)).sort(),
      ...useIds.map((id) => `cooldown use ${normalised(id)}`),
    ];
  }

  beforeAll(async () => {
    // The in-process cooldown store is handed each use's id (a shared store counts a use taken again once).
    const take: CooldownStore['take'] = Cooldowns.prototype.take;
    vi.spyOn(Cooldowns.prototype as CooldownStore, 'take').mockImplementation(function (this: Cooldowns, ...args) {
      useIds.push(args[2]);
      return take.apply(this, args);
    });
    platform = await createTestPlatform({
      emulator: { now: () => clock.now(), rateLimit: { requests: 100_000 } },
      bot: (base) => {
        rest = new RestClient({ token: base.token, baseUrl: base.apiUrl, dispatcher: recordingAgent(writes) });
        return createBot({
          ...base,
          rest,
          clock,
          handlers: [Golden, Shout, Vip, Daily, Fail, Note, Echo, Listeners, Ticker],
          sessions: store,
          gateway: (options) => {
            const gateway = (base.gateway as NonNullable<typeof base.gateway>)(options);
            gateway.on('dispatch', (event: GatewayDispatch) => {
              if (event.unknown) return;
              const data = event.data as { interaction?: { command: { name: string } }; message?: Message };
              const { interaction, message } = data;
              events.set(event.id, () =>
                interaction
                  ? `${event.name} /${interaction.command.name}`
                  : `${event.name} ${(message && names.get(message.id)) ?? 'a message of the bot'}`,
              );
            });
            return gateway;
          },
        });
      },
    });
    Ticker.board = (await platform.board('general')).id;
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await platform?.close();
    await rest?.close();
  });

  it('are the ones recorded before the run was redesigned (issue 41)', async () => {
    const alice = platform.person('alice');
    const said = async (name: string, content: string) => {
      const message = await alice.say(content);
      names.set(message.id, name);
      return message;
    };

    await step('slash command', () => alice.start('golden'));
    await step('text command', () => said('!golden', '!golden'));
    await step('message listener', () => said('hello', 'hello there'));
    await step('refusal: invalid options (slash)', () => alice.start('shout', { words: 'quiet' }));
    await step('refusal: invalid options (text)', () => said('!shout', '!shout quiet'));
    await step('refusal: guard', () => alice.start('vip'));
    await step('refusal: a listener guard with words', () => said('guarded', 'guarded words'));
    await step('cooldown: first use', () => alice.start('daily'));
    await step('cooldown: refused', () => alice.start('daily'));
    await step('apology', () => alice.start('fail'));
    await step('unknown command', async () => {
      const admin = new RestClient({ token: platform.token, baseUrl: platform.urls.apiUrl });
      const registered = await admin.listCommands();
      await admin.replaceCommands([
        ...registered.map(({ name, description, options }) => ({ name, description, ...(options && { options }) })),
        { name: 'ghost', description: 'No handler' },
      ]);
      await admin.close();
      await alice.start('ghost');
    });
    await step('text command without its subcommand', () => said('!note', '!note'));
    const fix = await said('fix', 'fix one');
    await platform.settle();
    await step('editable listener: re-run on edit', () => alice.edit(fix, 'fix two'));
    const echo = await said('!echo', '!echo 6');
    await platform.settle();
    await step('editable text command: re-run on edit', () => alice.edit(echo, '!echo 20'));
    await step('editable answers deleted with their message, and an event listener', () => alice.delete(fix));
    await step('burst batch', async () => {
      await said('burst 1', 'burst 1');
      await said('burst 2', 'burst 2');
      await said('burst 3', 'burst 3');
      await platform.settle();
      clock.advance(1000);
    });
    await step('streamed answer', () => said('stream', 'stream please'));
    await step('schedule tick', async () => clock.advanceTo('2026-03-02T09:00:00Z'));

    // A session's update key is the digest of its named key: replayed updates are found by it.
    expect(sessionKeys).toHaveLength(2);
    for (const { store: key, preimage } of sessionKeys) {
      const applied = (await store.read(key))?.value?.applied ?? [];
      expect(applied).toContain(createHash('sha256').update(preimage).digest('base64url').slice(0, 16));
    }
    // The name hashed into it holds the session's store key, which holds ids the platform made up.
    recorded.sessions = sessionKeys.map(
      (s) => `session update ${normalised(s.preimage).replace(/:n:[\w-]{10}$/, ':n:{session:<store key>:0}')}`,
    );

    if (process.env.BOARDBOT_RECORD_KEYS === '1') writeFileSync(FIXTURE, `${JSON.stringify(recorded, null, 2)}\n`);
    expect(recorded).toEqual(JSON.parse(readFileSync(FIXTURE, 'utf8')));
  });
});
