import { SseClient } from '@boardbot/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, type ClockedHarness, DEV_TOKEN, Harness } from './helpers/harness.js';

let h: ClockedHarness;
beforeEach(async () => {
  h = await Harness.onFakeClock({ rateLimit: { requests: 100_000 } });
});
afterEach(() => h.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('info, state, reset and seed', () => {
  it('describes the emulator with its URLs and limits', async () => {
    const { url } = await h.emu.listen({ port: 0 });
    const r = await h.ctl('GET', '/info');
    expect(r.json).toMatchObject({
      version: '0.1.0',
      api_url: `${url}/api/v1`,
      playground_url: `${url}/?key=${ADMIN_KEY}`,
      limits: { contentLength: 4000, rateLimitRequests: 100_000, gatewayStreams: 16 },
    });
  });

  it('shows the default seed in the state', async () => {
    const s = (await h.ctl('GET', '/state')).json;
    expect(s.users.map((u: { username: string }) => u.username)).toEqual(['alice', 'bob', 'dev-bot']);
    expect(s.boards.map((b: { name: string }) => b.name)).toEqual(['general', 'random']);
    expect(s.apps).toEqual([
      expect.objectContaining({ name: 'dev-bot', board_ids: [h.seed.general.id, h.seed.random.id], commands: [] }),
    ]);
  });

  it('resets to an empty platform, ending gateway streams, and seeds again idempotently', async () => {
    const { apiUrl } = await h.emu.listen({ port: 0 });
    const stream = await SseClient.open(`${apiUrl}/gateway`, DEV_TOKEN);
    await stream.nextEvent();
    expect((await h.ctl('POST', '/reset')).status).toBe(204);
    await stream.closed;
    expect((await h.ctl('GET', '/state')).json).toEqual({ users: [], boards: [], apps: [] });
    expect((await h.api('GET', '/app')).status).toBe(401);

    const first = await h.ctl('POST', '/seed');
    expect(first.status).toBe(200);
    const second = await h.ctl('POST', '/seed');
    expect(second.json).toEqual(first.json);
    expect((await h.ctl('GET', '/state')).json.users).toHaveLength(3);
    expect((await h.api('GET', '/app')).json.name).toBe('dev-bot');
  });
});

describe('people, boards and apps', () => {
  it('creates users with unique usernames', async () => {
    const carol = await h.ctl('POST', '/users', { username: 'carol', display_name: 'Carol C.' });
    expect(carol.status).toBe(201);
    expect(carol.json).toMatchObject({ username: 'carol', display_name: 'Carol C.', is_bot: false, avatar_url: null });
    const again = await h.ctl('POST', '/users', { username: 'carol' });
    expect([again.status, again.json.error.details[0].path]).toEqual([400, '/username']);
    for (const username of ['Carol', 'ca rol', '', 'x'.repeat(33)]) {
      expect((await h.ctl('POST', '/users', { username })).json.error.code).toBe('validation_failed');
    }
    expect((await h.ctl('GET', '/users')).json.users).toHaveLength(4);
  });

  it('creates boards and manages memberships', async () => {
    const board = (await h.ctl('POST', '/boards', { name: 'lab', description: 'Experiments' })).json;
    expect(board).toMatchObject({ name: 'lab', description: 'Experiments', member_count: 0 });
    const m = await h.ctl('PUT', `/boards/${board.id}/members/${h.seed.bob.id}`);
    expect(m.json).toMatchObject({ role: 'member', user: { username: 'bob' } });
    const admin = await h.ctl('PUT', `/boards/${board.id}/members/${h.seed.bob.id}`, { role: 'admin' });
    expect(admin.json.role).toBe('admin');
    expect(admin.json.joined_at).toBe(m.json.joined_at);
    expect((await h.ctl('PUT', `/boards/${board.id}/members/${h.seed.bob.id}`, { role: 'app' })).status).toBe(400);
    expect((await h.ctl('GET', `/boards/${board.id}/members`)).json.members).toHaveLength(1);
    expect((await h.ctl('DELETE', `/boards/${board.id}/members/${h.seed.bob.id}`)).status).toBe(204);
    expect((await h.ctl('GET', `/boards/${board.id}/members`)).json.members).toEqual([]);
    expect((await h.ctl('PUT', `/boards/${UNKNOWN}/members/${h.seed.bob.id}`)).json.error.code).toBe('unknown_board');
    expect((await h.ctl('PUT', `/boards/${board.id}/members/${UNKNOWN}`)).json.error.code).toBe('unknown_user');
    expect((await h.ctl('GET', '/boards')).json.boards).toHaveLength(3);
  });

  it('creates apps whose token works on the app API, shown once, and installs them', async () => {
    const created = await h.ctl('POST', '/apps', { name: 'Weather Bot', description: 'Forecasts' });
    expect(created.status).toBe(201);
    const { app, token } = created.json;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(app).toMatchObject({ name: 'Weather Bot', board_ids: [], commands: [] });
    expect((await h.api('GET', '/app', token)).json.id).toBe(app.id);
    expect(JSON.stringify((await h.ctl('GET', '/apps')).json)).not.toContain(token);

    const installed = await h.ctl('PUT', `/apps/${app.id}/installs/${h.seed.general.id}`);
    expect(installed.json.board_ids).toEqual([h.seed.general.id]);
    const members = (await h.ctl('GET', `/boards/${h.seed.general.id}/members`)).json.members;
    expect(members.find((m: { user: { id: string } }) => m.user.id === app.bot_user_id)?.role).toBe('app');
    expect((await h.api('GET', '/boards', token)).json.boards).toHaveLength(1);
    const removed = await h.ctl('DELETE', `/apps/${app.id}/installs/${h.seed.general.id}`);
    expect(removed.json.board_ids).toEqual([]);
    expect((await h.api('GET', `/boards/${h.seed.general.id}`, token)).json.error.code).toBe('unknown_board');
    expect((await h.ctl('PUT', `/apps/${UNKNOWN}/installs/${h.seed.general.id}`)).json.error.code).toBe('not_found');
  });

  it('uses a given app token as is, and refuses one another app has', async () => {
    const r = await h.ctl('POST', '/apps', { name: 'mine', token: 'my-fixed-token' });
    expect(r.json.token).toBe('my-fixed-token');
    expect((await h.api('GET', '/app', 'my-fixed-token')).json.name).toBe('mine');
    const dup = await h.ctl('POST', '/apps', { name: 'copy', token: DEV_TOKEN });
    expect([dup.status, dup.json.error.details[0].path]).toEqual([400, '/token']);
  });

  it('stores app tokens only as SHA-256', async () => {
    await h.ctl('POST', '/apps', { name: 'secret', token: 'very-secret-token' });
    const rows = h.emu.platform.store.db.prepare('SELECT * FROM apps').all();
    expect(JSON.stringify(rows)).not.toContain('very-secret-token');
    expect(JSON.stringify(rows)).not.toContain(DEV_TOKEN);
  });
});

describe('messages as people and webhooks', () => {
  it('posts as a member and raises the same gateway event as an app message', async () => {
    const m = await h.say(h.seed.general.id, h.seed.alice.id, 'hello bot');
    expect(m).toMatchObject({ author: h.seed.alice.id, kind: 'default', webhook_name: null });
    const events = h.emu.platform.store.events.after(h.seed.devBot.id, 0, 100);
    expect(events.map((e) => [e.name, JSON.parse(e.data).message.id])).toEqual([['message.create', m.id]]);
  });

  it('posts as a webhook with a null author', async () => {
    const r = await h.ctl('POST', `/boards/${h.seed.general.id}/messages`, { webhook_name: 'CI', content: 'build ok' });
    expect(r.json).toMatchObject({ author: null, webhook_name: 'CI', content: 'build ok' });
  });

  it('refuses a non-member, an unknown user, both authors or none', async () => {
    const carol = (await h.ctl('POST', '/users', { username: 'carol' })).json;
    const b = `/boards/${h.seed.general.id}/messages`;
    expect((await h.ctl('POST', b, { user_id: carol.id, content: 'x' })).json.error.details[0].path).toBe('/user_id');
    expect((await h.ctl('POST', b, { user_id: UNKNOWN, content: 'x' })).json.error.code).toBe('unknown_user');
    const both = await h.ctl('POST', b, { user_id: h.seed.alice.id, webhook_name: 'w', content: 'x' });
    expect(both.json.error.code).toBe('validation_failed');
    expect((await h.ctl('POST', b, { content: 'x' })).json.error.code).toBe('validation_failed');
    expect((await h.ctl('POST', `/boards/${UNKNOWN}/messages`, { webhook_name: 'w', content: 'x' })).status).toBe(404);
    expect(await h.messages(h.seed.general.id)).toEqual([]);
  });

  it('edits and deletes any message, and lists with paging', async () => {
    const bots = await h.send(h.seed.general.id, { content: 'from the bot' });
    const path = `/boards/${h.seed.general.id}/messages/${bots.id}`;
    expect((await h.ctl('PATCH', path, { content: 'moderated' })).json.content).toBe('moderated');
    expect((await h.ctl('DELETE', path)).status).toBe(204);
    expect((await h.ctl('DELETE', path)).status).toBe(204);
    await h.say(h.seed.general.id, h.seed.bob.id, 'two');
    const page = (await h.ctl('GET', `/boards/${h.seed.general.id}/messages?limit=1&key=${ADMIN_KEY}`)).json.messages;
    expect(page.map((m: { seq: number }) => m.seq)).toEqual([2]);
    const names = h.emu.platform.store.events.after(h.seed.devBot.id, 0, 100).map((e) => e.name);
    expect(names).toEqual(['message.create', 'message.edit', 'message.delete', 'message.create']);
  });
});

describe('slash commands as a person', () => {
  const roll = {
    name: 'roll',
    description: 'Roll dice',
    options: [
      { name: 'sides', description: 'Sides', type: 'integer', required: true, min_value: 2, max_value: 100 },
      { name: 'label', description: 'Label', type: 'string', min_length: 2, max_length: 5 },
      { name: 'color', description: 'Color', type: 'string', choices: [{ name: 'Red', value: 'red' }] },
      { name: 'loud', description: 'Loud', type: 'boolean' },
      { name: 'ratio', description: 'Ratio', type: 'number' },
      { name: 'who', description: 'Who', type: 'user' },
      { name: 'where', description: 'Where', type: 'board' },
    ],
  };
  const config = {
    name: 'config',
    description: 'Configure',
    options: [
      {
        name: 'set',
        description: 'Set',
        type: 'subcommand',
        options: [{ name: 'key', description: 'Key', type: 'string', required: true }],
      },
      { name: 'show', description: 'Show', type: 'subcommand' },
    ],
  };
  const invoke = (body: Record<string, unknown>) =>
    h.ctl('POST', '/interactions', { board_id: h.seed.general.id, user_id: h.seed.alice.id, ...body });

  beforeEach(() => h.registerCommands([roll, config]));
  /** Alice invokes `/config show` on general. */
  const alicesConfigShow = () =>
    h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'config', subcommand: 'show' });

  it('creates the interaction after converting form strings, raises interaction.create, and hides the token', async () => {
    const r = await invoke({
      command: 'roll',
      options: { sides: '20', loud: 'true', ratio: '0.5', who: h.seed.bob.id, where: h.seed.random.id, color: 'red' },
    });
    expect(r.status).toBe(201);
    expect(r.json.interaction).toMatchObject({
      type: 'command',
      app_id: h.seed.devBot.id,
      board_id: h.seed.general.id,
      user: { username: 'alice' },
      command: { name: 'roll', subcommand: null, options: { sides: 20, loud: true, ratio: 0.5, color: 'red' } },
      created_at: '2026-11-21T10:00:00.000Z',
      expires_at: '2026-11-21T10:15:00.000Z',
    });
    expect(r.json.interaction.token).toBeUndefined();
    const [event] = h.emu.platform.store.events.after(h.seed.devBot.id, 0, 10);
    expect(event?.name).toBe('interaction.create');
    expect(JSON.parse(event?.data ?? '{}').interaction.token).toBeUndefined();
    const token = JSON.parse(h.emu.platform.replayData('interaction.create', event?.data ?? '{}')).interaction.token;
    expect(token).toHaveLength(43);
    const stored = JSON.stringify(h.emu.platform.store.db.prepare('SELECT * FROM interactions').all());
    expect(stored).not.toContain(token);
  });

  it('checks subcommands', async () => {
    const ok = await invoke({ command: 'config', subcommand: 'set', options: { key: 'k' } });
    expect(ok.json.interaction.command).toEqual({ name: 'config', subcommand: 'set', options: { key: 'k' } });
    expect((await invoke({ command: 'config' })).json.error.details[0].path).toBe('/subcommand');
    expect((await invoke({ command: 'config', subcommand: 'nope' })).json.error.details[0].path).toBe('/subcommand');
    expect((await invoke({ command: 'config', subcommand: 'set' })).json.error.details[0].path).toBe('/options/key');
    expect((await invoke({ command: 'roll', subcommand: 'x', options: { sides: 6 } })).status).toBe(400);
  });

  it('refuses invocations that do not match the registered options', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ command: 'nope' }, '/command'],
      [{ command: 'roll', options: {} }, '/options/sides'],
      [{ command: 'roll', options: { sides: 1 } }, '/options/sides'],
      [{ command: 'roll', options: { sides: 101 } }, '/options/sides'],
      [{ command: 'roll', options: { sides: 2.5 } }, '/options/sides'],
      [{ command: 'roll', options: { sides: 'six' } }, '/options/sides'],
      [{ command: 'roll', options: { sides: 6, label: 'x' } }, '/options/label'],
      [{ command: 'roll', options: { sides: 6, label: 'toolong' } }, '/options/label'],
      [{ command: 'roll', options: { sides: 6, color: 'blue' } }, '/options/color'],
      [{ command: 'roll', options: { sides: 6, loud: 'yes' } }, '/options/loud'],
      [{ command: 'roll', options: { sides: 6, who: UNKNOWN } }, '/options/who'],
      [{ command: 'roll', options: { sides: 6, where: 'general' } }, '/options/where'],
      [{ command: 'roll', options: { sides: 6, extra: 1 } }, '/options/extra'],
    ];
    for (const [body, path] of cases) {
      const r = await invoke(body);
      expect([JSON.stringify(body), r.status, r.json.error.details.map((d: { path: string }) => d.path)]).toEqual([
        JSON.stringify(body),
        400,
        expect.arrayContaining([path]),
      ]);
    }
    const carol = (await h.ctl('POST', '/users', { username: 'carol' })).json;
    expect(
      (await invoke({ command: 'roll', user_id: carol.id, options: { sides: 6 } })).json.error.details[0].path,
    ).toBe('/user_id');
    expect((await h.ctl('GET', '/interactions')).json.interactions).toEqual([]);
  });

  it('needs app_id when two apps on the board register the same name', async () => {
    const other = await h.createApp('other', [h.seed.general.id]);
    await h.registerCommands([roll], other.token);
    expect((await invoke({ command: 'roll', options: { sides: 6 } })).json.error.details[0].path).toBe('/app_id');
    const r = await invoke({ command: 'roll', options: { sides: 6 }, app_id: other.id });
    expect(r.json.interaction.app_id).toBe(other.id);
  });

  it('lists interactions newest first with their answers, and waits for answers', async () => {
    const { id, token } = await alicesConfigShow();
    await h.invoke({ board_id: h.seed.random.id, user_id: h.seed.bob.id, command: 'config', subcommand: 'show' });
    const list = (await h.ctl('GET', `/interactions?board_id=${h.seed.general.id}`)).json.interactions;
    expect(list.map((v: { interaction: { id: string } }) => v.interaction.id)).toEqual([id]);
    expect(list[0]).toMatchObject({ status: 'pending', answers: [] });
    expect((await h.ctl('GET', '/interactions?limit=1')).json.interactions).toHaveLength(1);

    const waiting = h.ctl('GET', `/interactions/${id}/wait?answers=2&timeout_ms=10000`);
    await h.api('POST', `/interactions/${token}`, null, { body: { content: 'one' } });
    await h.api('POST', `/interactions/${token}`, null, { body: { content: 'two' } });
    const view = (await waiting).json;
    expect(view.status).toBe('answered');
    expect(view.answers.map((m: { content: string }) => m.content)).toEqual(['one', 'two']);
    expect(JSON.stringify(view)).not.toContain(token);

    const timedOut = await h.ctl('GET', `/interactions/${id}/wait?answers=5&timeout_ms=20`);
    expect(timedOut.json.answers).toHaveLength(2);
    expect((await h.ctl('GET', `/interactions/${UNKNOWN}`)).json.error.code).toBe('unknown_interaction');
  });

  it('invokes and waits in one request when asked, and answers at once when not', async () => {
    const body = { board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'config', subcommand: 'show' };
    const plain = await h.ctl('POST', '/interactions', body);
    expect([plain.status, Object.keys(plain.json)]).toEqual([201, ['interaction']]);

    const waiting = h.ctl('POST', '/interactions?answers=2&timeout_ms=10000', body);
    while (h.emu.platform.answerWaiters.size === 0) await new Promise((r) => setTimeout(r, 5));
    // The newest interaction is the waiting one: answer it twice with the token its app received.
    const [newest] = (await h.ctl('GET', '/interactions?limit=1')).json.interactions;
    const { token } = h.emu.platform.store.events
      .after(h.seed.devBot.id, 0, 100_000)
      .filter((e) => e.name === 'interaction.create')
      .map((e) => JSON.parse(h.emu.platform.replayData(e.name, e.data)).interaction)
      .find((i: { id: string }) => i.id === newest.interaction.id);
    await h.api('POST', `/interactions/${token}`, null, { body: { content: 'one' } });
    await h.api('POST', `/interactions/${token}`, null, { body: { content: 'two' } });
    const view = await waiting;
    expect(view.status).toBe(201);
    expect(view.json).toMatchObject({ interaction: { id: newest.interaction.id }, status: 'answered' });
    expect(view.json.answers.map((m: { content: string }) => m.content)).toEqual(['one', 'two']);
    expect(view.text).not.toContain(token);

    // `timeout_ms` alone waits for one answer; none comes, so the view is pending.
    const timedOut = await h.ctl('POST', '/interactions?timeout_ms=20', body);
    expect([timedOut.status, timedOut.json.status, timedOut.json.answers]).toEqual([201, 'pending', []]);
  });

  it('refuses a bad wait of an invocation before invoking anything', async () => {
    const body = { board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'config', subcommand: 'show' };
    for (const query of ['answers=0', 'answers=101', 'timeout_ms=-1', 'timeout_ms=120001', 'answers=x', 'wait=1']) {
      const r = await h.ctl('POST', `/interactions?${query}`, body);
      expect([query, r.status, r.json.error.code]).toEqual([query, 400, 'validation_failed']);
    }
    expect((await h.ctl('GET', '/interactions')).json.interactions).toEqual([]);
    expect(h.emu.platform.store.events.after(h.seed.devBot.id, 0, 100).map((e) => e.name)).not.toContain(
      'interaction.create',
    );
  });

  /**
   * Sends `init` to `path`, a request that waits for answers, and goes away while it waits; resolves
   * once the emulator released the wait (at the request's close, long before its two-minute timeout).
   */
  const abandonWhileWaiting = async (path: string, init: RequestInit = {}) => {
    const { controlUrl } = await h.emu.listen({ port: 0 });
    const gone = new AbortController();
    const waiting = fetch(`${controlUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      signal: gone.signal,
    }).catch(() => 'aborted');
    while (h.emu.platform.answerWaiters.size === 0) await new Promise((r) => setTimeout(r, 5));
    gone.abort();
    expect(await waiting).toBe('aborted');
    while (h.emu.platform.answerWaiters.size > 0) await new Promise((r) => setTimeout(r, 5));
  };

  it('ends the wait of an invocation when its caller goes away, and keeps the invocation', async () => {
    const body = { board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'config', subcommand: 'show' };
    await abandonWhileWaiting('/interactions?answers=1&timeout_ms=120000', {
      method: 'POST',
      body: JSON.stringify(body),
    });
    expect((await h.ctl('GET', '/interactions')).json.interactions).toHaveLength(1);
  });

  it('answers a pending wait with what it has when the emulator closes', async () => {
    const { id } = await alicesConfigShow();
    const waiting = h.ctl('GET', `/interactions/${id}/wait?answers=1&timeout_ms=120000`);
    while (h.emu.platform.answerWaiters.size === 0) await new Promise((r) => setTimeout(r, 5));
    await h.close();
    const view = await waiting;
    expect([view.status, view.json.status, view.json.answers]).toEqual([200, 'pending', []]);
  });

  it('ends a wait when its caller goes away', async () => {
    const { id } = await alicesConfigShow();
    await abandonWhileWaiting(`/interactions/${id}/wait?answers=1&timeout_ms=120000`);
    expect(h.emu.platform.answerWaiters.size).toBe(0);
  });

  it('shows an unanswered interaction as expired after 15 minutes', async () => {
    const { id } = await alicesConfigShow();
    h.clock.advance(15 * 60 * 1000);
    expect((await h.ctl('GET', `/interactions/${id}`)).json.status).toBe('expired');
  });
});

describe('activity stream', () => {
  it('follows everything with increasing ids, without tokens', async () => {
    const { controlUrl } = await h.emu.listen({ port: 0 });
    const s = await SseClient.open(`${controlUrl}/events?key=${ADMIN_KEY}`, '');
    expect(s.status).toBe(200);
    const ready = await s.nextEvent();
    expect(JSON.parse(ready.data)).toEqual({ type: 'ready' });
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    const m = await h.say(h.seed.general.id, h.seed.alice.id, 'hi');
    const { token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
    await h.api('POST', `/interactions/${token}`, null, { body: { content: 'pong' } });
    await h.ctl('POST', '/users', { username: 'dave' });
    await h.ctl('POST', '/reset');
    const seen = [];
    let previous = Number(ready.id);
    for (let i = 0; i < 7; i++) {
      const f = await s.nextEvent();
      expect(Number(f.id)).toBeGreaterThan(previous);
      previous = Number(f.id);
      seen.push([f.event, JSON.parse(f.data)]);
    }
    expect(seen.map(([name]) => name)).toEqual([
      'commands.update',
      'message.create',
      'interaction.create',
      'message.create',
      'interaction.update',
      'state.update',
      'reset',
    ]);
    expect(seen[1]?.[1].message).toEqual(m);
    expect(seen[4]?.[1].interaction).toMatchObject({ status: 'answered', answers: [{ content: 'pong' }] });
    expect(seen[5]?.[1]).toEqual({ type: 'state.update', what: 'users' });
    expect(JSON.stringify(seen)).not.toContain(token);
    s.destroy();
  });

  it('refuses the stream without the key', async () => {
    const { controlUrl } = await h.emu.listen({ port: 0 });
    const s = await SseClient.open(`${controlUrl}/events`, '');
    expect(s.status).toBe(401);
    await s.closed;
  });
});
