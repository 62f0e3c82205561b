import { SseClient } from '@boardbot/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, DEV_TOKEN, FakeClock, Harness } from './helpers/harness.js';

// Every endpoint × (no token, unknown token, another app's token, the right token). "Another app" is
// installed on a board of its own only, so dev-bot's boards, messages and people are invisible to it.

type Who = 'none' | 'unknown' | 'other' | 'right';
const WHO: Who[] = ['none', 'unknown', 'other', 'right'];

let h: Harness;
let clock: FakeClock;
let other: { id: string; bot_user_id: string; token: string };
let otherBoard: string;

const tokenOf = (who: Who): string | null =>
  who === 'none' ? null : who === 'unknown' ? 'not-a-known-token' : who === 'other' ? other.token : DEV_TOKEN;

beforeAll(async () => {
  clock = new FakeClock();
  h = await Harness.start({ now: clock.now, rateLimit: { requests: 100_000 } });
  otherBoard = (await h.ctl('POST', '/boards', { name: 'elsewhere' })).json.id;
  other = await h.createApp('other', [otherBoard]);
});
afterAll(() => h.close());

function expectUnauthorized(r: Answer): void {
  expect([r.status, r.json.error.code]).toEqual([401, 'unauthorized']);
  expect(r.headers['www-authenticate']).toBe('Bearer');
}

function expectAnonymousRefused(who: Who, r: Answer): boolean {
  if (who === 'none' || who === 'unknown') {
    expectUnauthorized(r);
    return true;
  }
  return false;
}

describe('authorization matrix', () => {
  for (const who of WHO) {
    describe(`with ${who === 'none' ? 'no token' : `${who} token`}`, () => {
      it('GET /boards lists only the caller app’s boards', async () => {
        const r = await h.api('GET', '/boards', tokenOf(who));
        if (expectAnonymousRefused(who, r)) return;
        const names = r.json.boards.map((b: { name: string }) => b.name);
        expect(names).toEqual(who === 'other' ? ['elsewhere'] : ['general', 'random']);
      });

      for (const [name, path] of [
        ['GET /boards/{boardId}', (b: string) => `/boards/${b}`],
        ['GET /boards/{boardId}/members', (b: string) => `/boards/${b}/members`],
        ['GET /boards/{boardId}/messages', (b: string) => `/boards/${b}/messages`],
      ] as const) {
        it(`${name} hides boards the app is not installed on`, async () => {
          const r = await h.api('GET', path(h.seed.general.id), tokenOf(who));
          if (expectAnonymousRefused(who, r)) return;
          if (who === 'other') expect([r.status, r.json.error.code]).toEqual([404, 'unknown_board']);
          else expect(r.status).toBe(200);
        });
      }

      it('POST /boards/{boardId}/messages only posts on installed boards', async () => {
        const before = (await h.messages(h.seed.general.id)).length;
        const r = await h.api('POST', `/boards/${h.seed.general.id}/messages`, tokenOf(who), {
          body: { content: who },
        });
        const after = (await h.messages(h.seed.general.id)).length;
        if (expectAnonymousRefused(who, r) || who === 'other') {
          if (who === 'other') expect(r.json.error.code).toBe('unknown_board');
          expect(after).toBe(before);
          return;
        }
        expect(r.json.author).toBe(h.seed.devBot.bot_user_id);
        expect(after).toBe(before + 1);
      });

      it('PATCH and DELETE /boards/{boardId}/messages/{messageId} act on the app’s own messages only', async () => {
        const m = await h.send(h.seed.general.id, { content: 'owned by dev-bot' });
        const path = `/boards/${h.seed.general.id}/messages/${m.id}`;
        const edit = await h.api('PATCH', path, tokenOf(who), { body: { content: 'changed' } });
        const del = await h.api('DELETE', path, tokenOf(who));
        const stored = (await h.messages(h.seed.general.id)).find((x) => x.id === m.id);
        if (expectAnonymousRefused(who, edit) && expectAnonymousRefused(who, del)) {
          expect(stored).toMatchObject({ content: 'owned by dev-bot', deleted_at: null });
          return;
        }
        if (who === 'other') {
          expect([edit.json.error.code, del.json.error.code]).toEqual(['unknown_board', 'unknown_board']);
          expect(stored).toMatchObject({ content: 'owned by dev-bot', deleted_at: null });
          return;
        }
        expect([edit.status, del.status]).toEqual([200, 204]);
        expect(stored?.deleted_at).not.toBeNull();
      });

      it('GET /users/{userId} shows only users sharing a board with the app', async () => {
        const r = await h.api('GET', `/users/${h.seed.alice.id}`, tokenOf(who));
        if (expectAnonymousRefused(who, r)) return;
        if (who === 'other') expect([r.status, r.json.error.code]).toEqual([404, 'unknown_user']);
        else expect(r.json.username).toBe('alice');
      });

      it('GET /app, GET and PUT /app/commands act on the token’s own app', async () => {
        const app = await h.api('GET', '/app', tokenOf(who));
        if (expectAnonymousRefused(who, app)) {
          expectUnauthorized(await h.api('GET', '/app/commands', tokenOf(who)));
          expectUnauthorized(await h.api('PUT', '/app/commands', tokenOf(who), { body: [] }));
          return;
        }
        expect(app.json.id).toBe(who === 'other' ? other.id : h.seed.devBot.id);
        const name = `${who}-cmd`;
        const put = await h.api('PUT', '/app/commands', tokenOf(who), { body: [{ name, description: 'd' }] });
        expect(put.status).toBe(200);
        const mine = await h.api('GET', '/app/commands', tokenOf(who));
        expect(mine.json.commands.map((c: { name: string }) => c.name)).toEqual([name]);
        const theirs = await h.api('GET', '/app/commands', who === 'other' ? DEV_TOKEN : other.token);
        expect(theirs.json.commands.map((c: { name: string }) => c.name)).not.toContain(name);
      });

      it('POST /interactions/{token} ignores the Authorization header: the interaction token is the credential', async () => {
        await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
        const { token, id } = await h.invoke({
          board_id: h.seed.general.id,
          user_id: h.seed.alice.id,
          command: 'ping',
        });
        const r = await h.api('POST', `/interactions/${token}`, tokenOf(who), { body: { content: 'pong' } });
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ author: h.seed.devBot.bot_user_id, interaction: { id } });
      });

      it('GET /gateway opens the token’s own stream', async () => {
        const { apiUrl } = h.emu.urls ?? (await h.emu.listen({ port: 0 }));
        const c = await SseClient.open(`${apiUrl}/gateway`, tokenOf(who) ?? '');
        try {
          if (who === 'none' || who === 'unknown') {
            expect(c.status).toBe(401);
            expect(JSON.parse(await c.text()).error.code).toBe('unauthorized');
            return;
          }
          const ready = JSON.parse((await c.nextEvent()).data);
          expect(ready.app.id).toBe(who === 'other' ? other.id : h.seed.devBot.id);
          expect(ready.board_ids).toEqual(who === 'other' ? [otherBoard] : [h.seed.general.id, h.seed.random.id]);
        } finally {
          c.destroy();
        }
      });
    });
  }

  it('an app co-installed on a board still cannot edit or delete another app’s message (403)', async () => {
    await h.ctl('PUT', `/apps/${other.id}/installs/${h.seed.random.id}`);
    const m = await h.send(h.seed.random.id, { content: 'dev-bot wrote this' });
    const path = `/boards/${h.seed.random.id}/messages/${m.id}`;
    const edit = await h.api('PATCH', path, other.token, { body: { content: 'hijacked' } });
    const del = await h.api('DELETE', path, other.token);
    expect([edit.status, edit.json.error.code, del.status, del.json.error.code]).toEqual([
      403,
      'forbidden',
      403,
      'forbidden',
    ]);
    expect((await h.messages(h.seed.random.id)).find((x) => x.id === m.id)?.content).toBe('dev-bot wrote this');
    await h.ctl('DELETE', `/apps/${other.id}/installs/${h.seed.random.id}`);
  });

  it('another app’s interaction token answers as that app, on that app’s board', async () => {
    await h.registerCommands([{ name: 'hello', description: 'Hello' }], other.token);
    const { token } = await h.invoke({
      board_id: otherBoard,
      user_id: (await h.ctl('PUT', `/boards/${otherBoard}/members/${h.seed.bob.id}`)).json.user.id,
      command: 'hello',
    });
    const r = await h.api('POST', `/interactions/${token}`, DEV_TOKEN, { body: { content: 'hi' } });
    expect(r.json).toMatchObject({ author: other.bot_user_id, board_id: otherBoard });
  });

  it('an expired interaction token is refused with 410 whoever sends it', async () => {
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    const { token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.alice.id, command: 'ping' });
    clock.advance(15 * 60 * 1000);
    for (const who of WHO) {
      const r = await h.api('POST', `/interactions/${token}`, tokenOf(who), { body: { content: 'late' } });
      expect([who, r.status, r.json.error.code]).toEqual([who, 410, 'interaction_expired']);
    }
  });

  it('the control API refuses app tokens and wrong keys', async () => {
    for (const key of [DEV_TOKEN, other.token, 'wrong']) {
      const r = await h.request('GET', '/_emulator/v1/state', { headers: { authorization: `Bearer ${key}` } });
      expect([r.status, r.json.error.code]).toEqual([401, 'unauthorized']);
    }
    expect((await h.request('GET', '/_emulator/v1/state')).status).toBe(401);
    expect((await h.request('POST', '/_emulator/v1/reset?key=test-admin-key')).status).toBe(401);
    expect((await h.request('GET', '/_emulator/v1/state?key=test-admin-key')).status).toBe(200);
  });
});
