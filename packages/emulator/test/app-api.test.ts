import type { Message } from '@boardbot/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ClockedHarness, Harness } from './helpers/harness.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let h: ClockedHarness;
beforeEach(async () => {
  h = await Harness.onFakeClock({ rateLimit: { requests: 10_000 } });
});
afterEach(() => h.close());

async function privateBoard(): Promise<string> {
  const r = await h.ctl('POST', '/boards', { name: 'private' });
  await h.ctl('PUT', `/boards/${r.json.id}/members/${h.seed.alice.id}`);
  return r.json.id as string;
}

describe('GET /boards', () => {
  it('lists only the boards the app is installed on', async () => {
    await privateBoard();
    const r = await h.api('GET', '/boards');
    expect(r.status).toBe(200);
    expect(r.json.boards.map((b: { name: string }) => b.name)).toEqual(['general', 'random']);
    expect(r.json.boards[0]).toMatchObject({ description: 'Everything and anything', member_count: 3 });
  });
});

describe('GET /boards/{boardId}', () => {
  it('reads a board the app is installed on', async () => {
    const r = await h.api('GET', `/boards/${h.seed.general.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual(h.seed.general);
  });

  it('answers 404 unknown_board alike for a missing board and a board the app is not on', async () => {
    const missing = await h.api('GET', `/boards/${UNKNOWN}`);
    const hidden = await h.api('GET', `/boards/${await privateBoard()}`);
    expect([missing.status, missing.json.error.code]).toEqual([404, 'unknown_board']);
    expect([hidden.status, hidden.json.error.code]).toEqual([404, 'unknown_board']);
    expect(hidden.json.error.message).toBe(missing.json.error.message);
  });

  it('answers 400 validation_failed for a malformed UUID', async () => {
    const r = await h.api('GET', '/boards/not-a-uuid');
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'validation_failed', details: [{ path: '/boardId' }] });
  });
});

describe('GET /boards/{boardId}/members', () => {
  it('lists people and the app bot user with their roles', async () => {
    const r = await h.api('GET', `/boards/${h.seed.general.id}/members`);
    expect(r.status).toBe(200);
    const roles = Object.fromEntries(
      r.json.members.map((m: { user: { username: string }; role: string }) => [m.user.username, m.role]),
    );
    expect(roles).toEqual({ alice: 'owner', bob: 'member', 'dev-bot': 'app' });
    const bot = r.json.members.find((m: { role: string }) => m.role === 'app');
    expect(bot.user).toMatchObject({ id: h.seed.devBot.bot_user_id, is_bot: true });
  });

  it('answers 404 unknown_board for a board the app is not on, 400 for a bad id', async () => {
    expect((await h.api('GET', `/boards/${await privateBoard()}/members`)).json.error.code).toBe('unknown_board');
    expect((await h.api('GET', '/boards/123/members')).json.error.code).toBe('validation_failed');
  });
});

describe('GET /boards/{boardId}/messages', () => {
  it('pages by seq, highest first, with tombstones kept in place', async () => {
    const board = h.seed.general.id;
    for (let i = 1; i <= 7; i++) await h.say(board, h.seed.alice.id, `m${i}`);
    const mine = await h.send(board, { content: 'bot' });
    expect((await h.api('DELETE', `/boards/${board}/messages/${mine.id}`)).status).toBe(204);

    const first = await h.api('GET', `/boards/${board}/messages?limit=3`);
    expect(first.status).toBe(200);
    expect(first.json.messages.map((m: Message) => m.seq)).toEqual([8, 7, 6]);
    expect(first.json.messages[0]).toMatchObject({ id: mine.id, content: null, embeds: null });
    expect(first.json.messages[0].deleted_at).not.toBeNull();
    const next = await h.api('GET', `/boards/${board}/messages?limit=3&before=6`);
    expect(next.json.messages.map((m: Message) => m.seq)).toEqual([5, 4, 3]);
    const last = await h.api('GET', `/boards/${board}/messages?before=3`);
    expect(last.json.messages.map((m: Message) => m.content)).toEqual(['m2', 'm1']);
    expect((await h.api('GET', `/boards/${board}/messages?before=1`)).json.messages).toEqual([]);
  });

  it('returns 50 messages by default', async () => {
    for (let i = 0; i < 60; i++) await h.say(h.seed.random.id, h.seed.bob.id, `n${i}`);
    const r = await h.api('GET', `/boards/${h.seed.random.id}/messages`);
    expect(r.json.messages).toHaveLength(50);
    expect(r.json.messages[0].seq).toBe(60);
  });

  it('answers 404 unknown_board for a board the app is not on', async () => {
    const r = await h.api('GET', `/boards/${await privateBoard()}/messages`);
    expect([r.status, r.json.error.code]).toEqual([404, 'unknown_board']);
  });
});

describe('POST /boards/{boardId}/messages', () => {
  it('stores the message authored by the app bot user with the next seq', async () => {
    await h.say(h.seed.general.id, h.seed.alice.id, 'first');
    const embeds = [{ title: 'T', color: '#ff0000', fields: [{ name: 'a', value: 'b', inline: true }] }];
    const m = await h.send(h.seed.general.id, { content: 'hello', embeds });
    expect(m).toMatchObject({
      board_id: h.seed.general.id,
      author: h.seed.devBot.bot_user_id,
      kind: 'default',
      content: 'hello',
      embeds,
      seq: 2,
      reply_to: null,
      webhook_name: null,
      edited_at: null,
      deleted_at: null,
      interaction: null,
      media: null,
    });
    expect(m.created_at).toBe('2026-11-21T10:00:00.000Z');
    const listed = await h.api('GET', `/boards/${h.seed.general.id}/messages?limit=1`);
    expect(listed.json.messages[0]).toEqual(m);
  });

  it('threads a reply with kind "reply"', async () => {
    const parent = await h.say(h.seed.general.id, h.seed.alice.id, 'question');
    const m = await h.send(h.seed.general.id, { content: 'answer', replyTo: parent.id });
    expect(m).toMatchObject({ kind: 'reply', reply_to: parent.id });
  });

  it('refuses a replyTo of another board with 400 validation_failed and stores nothing', async () => {
    const other = await h.say(h.seed.random.id, h.seed.alice.id, 'elsewhere');
    const r = await h.api('POST', `/boards/${h.seed.general.id}/messages`, undefined, {
      body: { content: 'x', replyTo: other.id },
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'validation_failed', details: [{ path: '/replyTo' }] });
    expect(await h.messages(h.seed.general.id)).toEqual([]);
  });

  it('answers 404 unknown_board for a board the app is not on', async () => {
    const board = await privateBoard();
    const r = await h.api('POST', `/boards/${board}/messages`, undefined, { body: { content: 'x' } });
    expect([r.status, r.json.error.code]).toEqual([404, 'unknown_board']);
    expect(await h.messages(board)).toEqual([]);
  });
});

describe('PATCH /boards/{boardId}/messages/{messageId}', () => {
  it("edits the app's own message and sets edited_at", async () => {
    const m = await h.send(h.seed.general.id, { content: 'v1' });
    h.clock.advance(5000);
    const r = await h.api('PATCH', `/boards/${h.seed.general.id}/messages/${m.id}`, undefined, {
      body: { content: 'v2' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: m.id, seq: m.seq, content: 'v2', edited_at: '2026-11-21T10:00:05.000Z' });
  });

  it("answers 403 forbidden for someone else's message, 404 for a missing or deleted one", async () => {
    const board = h.seed.general.id;
    const alices = await h.say(board, h.seed.alice.id, 'mine');
    const forbidden = await h.api('PATCH', `/boards/${board}/messages/${alices.id}`, undefined, {
      body: { content: 'x' },
    });
    expect([forbidden.status, forbidden.json.error.code]).toEqual([403, 'forbidden']);
    const missing = await h.api('PATCH', `/boards/${board}/messages/${UNKNOWN}`, undefined, { body: { content: 'x' } });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'unknown_message']);
    const m = await h.send(board, { content: 'soon gone' });
    await h.api('DELETE', `/boards/${board}/messages/${m.id}`);
    const deleted = await h.api('PATCH', `/boards/${board}/messages/${m.id}`, undefined, { body: { content: 'x' } });
    expect([deleted.status, deleted.json.error.code]).toEqual([404, 'unknown_message']);
    expect((await h.messages(board)).map((x) => x.content)).toEqual([null, 'mine']);
  });

  it('answers 404 unknown_message for a message of another board', async () => {
    const m = await h.send(h.seed.random.id, { content: 'x' });
    const r = await h.api('PATCH', `/boards/${h.seed.general.id}/messages/${m.id}`, undefined, {
      body: { content: 'y' },
    });
    expect(r.json.error.code).toBe('unknown_message');
  });

  it('requires content', async () => {
    const m = await h.send(h.seed.general.id, { content: 'v1' });
    const r = await h.api('PATCH', `/boards/${h.seed.general.id}/messages/${m.id}`, undefined, { body: {} });
    expect(r.json.error).toMatchObject({ code: 'validation_failed', details: [{ path: '/content' }] });
  });
});

describe('DELETE /boards/{boardId}/messages/{messageId}', () => {
  it('leaves a tombstone and is idempotent', async () => {
    const board = h.seed.general.id;
    const m = await h.send(board, { content: 'bye', embeds: [{ title: 't' }] });
    h.clock.advance(1000);
    const first = await h.api('DELETE', `/boards/${board}/messages/${m.id}`);
    expect([first.status, first.text]).toEqual([204, '']);
    const second = await h.api('DELETE', `/boards/${board}/messages/${m.id}`);
    expect(second.status).toBe(204);
    const [tomb] = await h.messages(board);
    expect(tomb).toMatchObject({
      id: m.id,
      seq: m.seq,
      content: null,
      embeds: null,
      media: null,
      deleted_at: '2026-11-21T10:00:01.000Z',
    });
  });

  it("answers 403 forbidden for someone else's message and 404 for a missing one", async () => {
    const board = h.seed.general.id;
    const alices = await h.say(board, h.seed.alice.id, 'keep');
    expect((await h.api('DELETE', `/boards/${board}/messages/${alices.id}`)).json.error.code).toBe('forbidden');
    expect((await h.api('DELETE', `/boards/${board}/messages/${UNKNOWN}`)).json.error.code).toBe('unknown_message');
    expect((await h.messages(board))[0]?.content).toBe('keep');
  });
});

describe('GET /users/{userId}', () => {
  it('reads users sharing a board with the app, and its own bot user', async () => {
    const alice = await h.api('GET', `/users/${h.seed.alice.id}`);
    expect([alice.status, alice.json]).toEqual([200, h.seed.alice]);
    const self = await h.api('GET', `/users/${h.seed.devBot.bot_user_id}`);
    expect(self.json).toMatchObject({ username: 'dev-bot', is_bot: true });
  });

  it('answers 404 unknown_user for a user sharing no board with the app, and for a missing one', async () => {
    const carol = (await h.ctl('POST', '/users', { username: 'carol' })).json;
    expect((await h.api('GET', `/users/${carol.id}`)).json.error.code).toBe('unknown_user');
    expect((await h.api('GET', `/users/${UNKNOWN}`)).json.error.code).toBe('unknown_user');
    await h.ctl('PUT', `/boards/${h.seed.random.id}/members/${carol.id}`);
    expect((await h.api('GET', `/users/${carol.id}`)).json.username).toBe('carol');
  });
});

describe('GET /app', () => {
  it('reads the app the token belongs to', async () => {
    const r = await h.api('GET', '/app');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: h.seed.devBot.id, name: 'dev-bot', bot_user_id: h.seed.devBot.bot_user_id });
    expect(Object.keys(r.json).sort()).toEqual(['bot_user_id', 'created_at', 'description', 'id', 'name']);
  });
});

describe('GET and PUT /app/commands', () => {
  const roll = {
    name: 'roll',
    description: 'Roll a die',
    options: [{ name: 'sides', description: 'Sides', type: 'integer', min_value: 2, x_hint: { keep: true } }],
  };

  it('replaces the whole set, keeping ids of unchanged names and unknown option keys', async () => {
    expect((await h.api('GET', '/app/commands')).json).toEqual({ commands: [] });
    const first = await h.api('PUT', '/app/commands', undefined, {
      body: [roll, { name: 'ping', description: 'Ping' }],
    });
    expect(first.status).toBe(200);
    const [r1, p1] = first.json.commands;
    expect(r1).toMatchObject({ name: 'roll', options: roll.options, updated_at: '2026-11-21T10:00:00.000Z' });
    expect(p1).toMatchObject({ name: 'ping', options: [] });

    h.clock.advance(60_000);
    const second = await h.api('PUT', '/app/commands', undefined, {
      body: [{ ...roll }, { name: 'ping', description: 'Ping!' }, { name: 'new', description: 'New' }],
    });
    const [r2, p2, n2] = second.json.commands;
    expect(r2).toEqual(r1);
    expect(p2.id).toBe(p1.id);
    expect(p2.updated_at).toBe('2026-11-21T10:01:00.000Z');
    expect(n2.name).toBe('new');
    expect((await h.api('GET', '/app/commands')).json).toEqual(second.json);

    const cleared = await h.api('PUT', '/app/commands', undefined, { body: [] });
    expect(cleared.json.commands).toEqual([]);
  });

  it('refuses an invalid set with 400 validation_failed and keeps the old one', async () => {
    await h.registerCommands([roll]);
    const before = (await h.api('GET', '/app/commands')).json;
    const r = await h.api('PUT', '/app/commands', undefined, {
      body: [roll, { ...roll, description: 'again' }],
    });
    expect(r.json.error).toMatchObject({ code: 'validation_failed', details: [{ path: '/1/name' }] });
    expect((await h.api('GET', '/app/commands')).json).toEqual(before);
  });
});

describe('POST /interactions/{token}', () => {
  async function invocation() {
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    return h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
  }

  it('answers with an interaction_response message, then follow-ups, up to 5', async () => {
    const { id, token } = await invocation();
    const answers: Message[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await h.api('POST', `/interactions/${token}`, null, { body: { content: `answer ${i}` } });
      expect(r.status).toBe(200);
      answers.push(r.json);
    }
    expect(answers[0]).toMatchObject({
      kind: 'interaction_response',
      author: h.seed.devBot.bot_user_id,
      board_id: h.seed.general.id,
      interaction: { id, name: 'ping', user_id: h.seed.alice.id },
    });
    const view = (await h.ctl('GET', `/interactions/${id}`)).json;
    expect(view.status).toBe('answered');
    expect(view.answers.map((m: Message) => m.content)).toEqual(answers.map((m) => m.content));
  });

  it('answers a sixth answer with 410 interaction_exhausted, not interaction_expired (a token used up is not an expiry)', async () => {
    const { id, token } = await invocation();
    for (let i = 1; i <= 5; i++) await h.api('POST', `/interactions/${token}`, null, { body: { content: `${i}` } });
    const sixth = await h.api('POST', `/interactions/${token}`, null, { body: { content: 'one more' } });
    expect([sixth.status, sixth.json.error.code]).toEqual([410, 'interaction_exhausted']);
    expect(sixth.json.error.message).toContain('5 answers');
    expect((await h.ctl('GET', `/interactions/${id}`)).json.answers).toHaveLength(5);
  });

  it('answers 410 interaction_expired 15 minutes after the invocation', async () => {
    const { token } = await invocation();
    h.clock.advance(15 * 60 * 1000 - 1);
    expect((await h.api('POST', `/interactions/${token}`, null, { body: { content: 'in time' } })).status).toBe(200);
    h.clock.advance(1);
    const late = await h.api('POST', `/interactions/${token}`, null, { body: { content: 'late' } });
    expect([late.status, late.json.error.code]).toEqual([410, 'interaction_expired']);
    expect((await h.messages(h.seed.general.id)).map((m) => m.content)).toEqual(['in time']);
  });

  it('answers 404 unknown_interaction for an unknown token', async () => {
    const r = await h.api('POST', `/interactions/${'x'.repeat(43)}`, null, { body: { content: 'hi' } });
    expect([r.status, r.json.error.code]).toEqual([404, 'unknown_interaction']);
  });
});

describe('routing', () => {
  it('answers 404 not_found for an unknown path and 405 method_not_allowed with Allow for a known one', async () => {
    const unknown = await h.api('GET', '/nothing/here');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'not_found']);
    const wrong = await h.api('POST', '/boards');
    expect([wrong.status, wrong.json.error.code]).toEqual([405, 'method_not_allowed']);
    expect(wrong.headers.allow).toBe('GET');
    const wrongAnon = await h.api('DELETE', '/app', null);
    expect(wrongAnon.status).toBe(405);
  });

  it('answers /healthz without auth', async () => {
    const r = await h.request('GET', '/healthz');
    expect([r.status, r.json]).toEqual([200, { ok: true }]);
  });

  it('serves the playground page at /', async () => {
    const r = await h.request('GET', '/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers 503 unavailable once closing has begun', async () => {
    const closing = h.emu.close();
    const r = await h.api('GET', '/app');
    await closing;
    expect([r.status, r.json.error.code]).toEqual([503, 'unavailable']);
  });
});
