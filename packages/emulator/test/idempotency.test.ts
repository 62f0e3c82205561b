import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_TOKEN, FakeClock, Harness } from './helpers/harness.js';

let h: Harness;
let clock: FakeClock;
beforeEach(async () => {
  clock = new FakeClock();
  h = await Harness.start({ now: clock.now, rateLimit: { requests: 10_000 } });
});
afterEach(() => h.close());

const eventCount = (appId: string) => h.emu.platform.store.events.after(appId, 0, 1_000_000).length;

describe('Idempotency-Key on POST /boards/{boardId}/messages', () => {
  it('replays the first answer for the same key and body, without a new message or event', async () => {
    const path = `/boards/${h.seed.general.id}/messages`;
    const send = { body: { content: 'once' }, headers: { 'idempotency-key': 'k-1' } };
    const first = await h.api('POST', path, DEV_TOKEN, send);
    const events = eventCount(h.seed.devBot.id);
    clock.advance(1000);
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
    clock.advance(24 * 60 * 60 * 1000);
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
    const { url } = await h.emu.listen({ port: 0 });
    const target = new URL(url);
    const path = `/api/v1/boards/${h.seed.general.id}/messages`;
    const body = JSON.stringify({ content: 'slow' });
    // The first request sends its head and half of its body, then waits.
    const socket = connect(Number(target.port), target.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString();
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${DEV_TOKEN}\r\n` +
        `Content-Type: application/json\r\nIdempotency-Key: slow-1\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    // Wait until the emulator holds the key (its gate ran on the head).
    const second = async () =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${DEV_TOKEN}`,
          'content-type': 'application/json',
          'idempotency-key': 'slow-1',
        },
        body,
      });
    let r = await second();
    for (let i = 0; i < 50 && r.status !== 409; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      r = await second();
    }
    expect(r.status).toBe(409);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('idempotency_in_progress');
    socket.write(body.slice(5));
    await new Promise<void>((resolve) => {
      const check = () => (answer.includes('\r\n\r\n{') ? resolve() : setTimeout(check, 10));
      check();
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    const replay = await second();
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
