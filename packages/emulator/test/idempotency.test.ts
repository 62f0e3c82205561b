import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ClockedHarness, DEV_TOKEN, Harness } from './helpers/harness.js';
import { startSlowRequest } from './helpers/slow-request.js';

let h: ClockedHarness;
beforeEach(async () => {
  h = await Harness.onFakeClock({ rateLimit: { requests: 10_000 } });
});
afterEach(() => h.close());

const eventCount = (appId: string) => h.emu.platform.store.events.after(appId, 0, 1_000_000).length;

describe('Idempotency-Key on POST /boards/{boardId}/messages', () => {
  it('replays the first answer for the same key and body, without a new message or event', async () => {
    const path = `/boards/${h.seed.general.id}/messages`;
    const send = { body: { content: 'once' }, headers: { 'idempotency-key': 'k-1' } };
    const first = await h.api('POST', path, DEV_TOKEN, send);
    const events = eventCount(h.seed.devBot.id);
    h.clock.advance(1000);
    const again = await h.api('POST', path, DEV_TOKEN, send);
    expect(first.status).toBe(200);
    expect([again.status, again.text]).toEqual([first.status, first.text]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await h.messages(h.seed.general.id)).toHaveLength(1);
    expect(eventCount(h.seed.devBot.id)).toBe(events);
  });

  it('answers 422 idempotency_key_reused for the same key with another body, and stores nothing', async () => {
    const path = `/boards/${h.seed.general.id}/messages`;
    await h.api('POST', path, DEV_TOKEN, { body: { content: 'a' }, headers: { 'idempotency-key': 'k-2' } });
    const r = await h.api('POST', path, DEV_TOKEN, { body: { content: 'b' }, headers: { 'idempotency-key': 'k-2' } });
    expect([r.status, r.json.error.code]).toEqual([422, 'idempotency_key_reused']);
    const other = await h.api('POST', `/boards/${h.seed.random.id}/messages`, DEV_TOKEN, {
      body: { content: 'a' },
      headers: { 'idempotency-key': 'k-2' },
    });
    expect(other.json.error.code).toBe('idempotency_key_reused');
    expect((await h.messages(h.seed.general.id)).map((m) => m.content)).toEqual(['a']);
    expect(await h.messages(h.seed.random.id)).toEqual([]);
  });

  it('scopes keys to the credential', async () => {
    const other = await h.createApp('other', [h.seed.general.id]);
    const path = `/boards/${h.seed.general.id}/messages`;
    const send = { body: { content: 'same' }, headers: { 'idempotency-key': 'shared' } };
    const a = await h.api('POST', path, DEV_TOKEN, send);
    const b = await h.api('POST', path, other.token, send);
    expect(a.json.id).not.toBe(b.json.id);
    expect(b.json.author).toBe(other.bot_user_id);
  });

  it('forgets a key after 24 hours', async () => {
    const path = `/boards/${h.seed.general.id}/messages`;
    const send = { body: { content: 'daily' }, headers: { 'idempotency-key': 'k-3' } };
    const first = await h.api('POST', path, DEV_TOKEN, send);
    h.clock.advance(24 * 60 * 60 * 1000);
    const later = await h.api('POST', path, DEV_TOKEN, send);
    expect(later.json.id).not.toBe(first.json.id);
    expect(await h.messages(h.seed.general.id)).toHaveLength(2);
  });

  it('does not remember a failed request: a corrected retry with the same key succeeds', async () => {
    const path = `/boards/${h.seed.general.id}/messages`;
    const bad = await h.api('POST', path, DEV_TOKEN, { body: { content: '' }, headers: { 'idempotency-key': 'k-4' } });
    expect(bad.status).toBe(400);
    const good = await h.api('POST', path, DEV_TOKEN, {
      body: { content: 'ok' },
      headers: { 'idempotency-key': 'k-4' },
    });
    expect(good.status).toBe(200);
  });

  it('refuses a malformed key with 400 validation_failed', async () => {
    for (const key of ['', 'with space', 'x'.repeat(256), 'é']) {
      const r = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, {
        body: { content: 'x' },
        headers: { 'idempotency-key': key },
      });
      expect([key, r.status, r.json.error.code]).toEqual([key, 400, 'validation_failed']);
    }
    expect(await h.messages(h.seed.general.id)).toEqual([]);
  });

  it('answers 409 idempotency_in_progress while the first request with the key is still arriving', async () => {
    const path = `/api/v1/boards/${h.seed.general.id}/messages`;
    const body = JSON.stringify({ content: 'slow' });
    const first = await startSlowRequest(h.emu, 'POST', path, 'slow-1', body);
    const r = await first.again();
    expect(r.status).toBe(409);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('idempotency_in_progress');
    expect((await first.finish()).status).toBe(200);
    const replay = await first.again();
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await h.messages(h.seed.general.id)).map((m) => m.content)).toEqual(['slow']);
  });
});

describe('Idempotency-Key on POST /interactions/{token}', () => {
  it('replays an answer without counting it again', async () => {
    await h.registerCommands([{ name: 'ping', description: 'Ping' }]);
    const { id, token } = await h.invoke({ board_id: h.seed.general.id, user_id: h.seed.bob.id, command: 'ping' });
    const send = { body: { content: 'pong' }, headers: { 'idempotency-key': 'answer-1' } };
    const first = await h.api('POST', `/interactions/${token}`, null, send);
    for (let i = 0; i < 6; i++) {
      const again = await h.api('POST', `/interactions/${token}`, null, send);
      expect(again.text).toBe(first.text);
    }
    const view = (await h.ctl('GET', `/interactions/${id}`)).json;
    expect(view.answers).toHaveLength(1);
    const changed = await h.api('POST', `/interactions/${token}`, null, {
      body: { content: 'other' },
      headers: { 'idempotency-key': 'answer-1' },
    });
    expect(changed.json.error.code).toBe('idempotency_key_reused');
  });
});

describe('Idempotency-Key on PATCH /boards/{boardId}/messages/{messageId}', () => {
  const edit = (path: string, content: string, key: string) =>
    h.api('PATCH', path, DEV_TOKEN, { body: { content }, headers: { 'idempotency-key': key } });

  it('replays the first answer for the same key and body, without a new edit or event', async () => {
    const m = await h.send(h.seed.general.id, { content: 'draft' });
    const path = `/boards/${h.seed.general.id}/messages/${m.id}`;
    const first = await edit(path, 'final', 'e-1');
    const events = eventCount(h.seed.devBot.id);
    h.clock.advance(1000);
    // Another edit without the key happens in between: the replay still answers the first edit.
    expect((await h.api('PATCH', path, DEV_TOKEN, { body: { content: 'later' } })).status).toBe(200);
    const again = await edit(path, 'final', 'e-1');
    expect(first.status).toBe(200);
    expect([again.status, again.text]).toEqual([first.status, first.text]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(eventCount(h.seed.devBot.id)).toBe(events + 1);
    expect((await h.messages(h.seed.general.id))[0]?.content).toBe('later');
  });

  it('answers 422 idempotency_key_reused for the same key with another body or another message', async () => {
    const a = await h.send(h.seed.general.id, { content: 'a' });
    const b = await h.send(h.seed.general.id, { content: 'b' });
    const pathA = `/boards/${h.seed.general.id}/messages/${a.id}`;
    await edit(pathA, 'a2', 'e-2');
    const other = await edit(pathA, 'a3', 'e-2');
    expect([other.status, other.json.error.code]).toEqual([422, 'idempotency_key_reused']);
    const elsewhere = await edit(`/boards/${h.seed.general.id}/messages/${b.id}`, 'a2', 'e-2');
    expect(elsewhere.json.error.code).toBe('idempotency_key_reused');
    expect((await h.messages(h.seed.general.id)).map((m) => m.content)).toEqual(['b', 'a2']);
  });

  it('shares the key space with POST: a key used by a send is reused by an edit (422)', async () => {
    const sent = await h.api('POST', `/boards/${h.seed.general.id}/messages`, DEV_TOKEN, {
      body: { content: 'x' },
      headers: { 'idempotency-key': 'e-3' },
    });
    const r = await edit(`/boards/${h.seed.general.id}/messages/${sent.json.id}`, 'x', 'e-3');
    expect(r.json.error.code).toBe('idempotency_key_reused');
  });

  it('does not remember a refused edit, and forgets a key after 24 hours', async () => {
    const m = await h.send(h.seed.general.id, { content: 'one' });
    const path = `/boards/${h.seed.general.id}/messages/${m.id}`;
    const refused = await h.api('PATCH', path, DEV_TOKEN, {
      body: { content: 5 },
      headers: { 'idempotency-key': 'e-4' },
    });
    expect(refused.status).toBe(400);
    expect((await edit(path, 'two', 'e-4')).status).toBe(200);
    h.clock.advance(24 * 60 * 60 * 1000);
    const later = await edit(path, 'three', 'e-4');
    expect([later.status, later.headers['idempotent-replayed']]).toEqual([200, undefined]);
    expect((await h.messages(h.seed.general.id))[0]?.content).toBe('three');
  });

  it('stores the key in the same transaction as the edit', async () => {
    const m = await h.send(h.seed.general.id, { content: 'one' });
    const path = `/boards/${h.seed.general.id}/messages/${m.id}`;
    // An edit that fails inside its transaction (a deleted message) leaves neither edit nor key.
    await h.api('DELETE', path);
    const gone = await edit(path, 'two', 'e-5');
    expect([gone.status, gone.json.error.code]).toEqual([404, 'unknown_message']);
    expect(h.emu.platform.store.idempotency.get(`app:${h.seed.devBot.id}`, 'e-5')).toBeUndefined();
    const other = await h.send(h.seed.general.id, { content: 'other' });
    const path2 = `/boards/${h.seed.general.id}/messages/${other.id}`;
    expect((await edit(path2, 'edited', 'e-5')).status).toBe(200);
    expect(h.emu.platform.store.idempotency.get(`app:${h.seed.devBot.id}`, 'e-5')).toMatchObject({ status: 200 });
  });

  it('answers 409 idempotency_in_progress while the first edit with the key is still arriving', async () => {
    const m = await h.send(h.seed.general.id, { content: 'before' });
    const path = `/api/v1/boards/${h.seed.general.id}/messages/${m.id}`;
    const body = JSON.stringify({ content: 'after' });
    const first = await startSlowRequest(h.emu, 'PATCH', path, 'slow-edit', body);
    const r = await first.again();
    expect(r.status).toBe(409);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('idempotency_in_progress');
    expect((await first.finish()).json.content).toBe('after');
    const replay = await first.again();
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  });
});
