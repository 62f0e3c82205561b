import type { Logger } from '@boardbot/protocol';
import { promtoolCheck, sample } from '@boardbot/test-support';
import { describe, expect, it } from 'vitest';
import { messageIdOf } from '../src/observe/install-observe.js';
import { Harness } from './helpers/harness.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

/** A logger that keeps the objects of its info lines. */
function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger: Logger = {
    trace() {},
    debug() {},
    info: (a: object | string) => void (typeof a === 'object' && lines.push(a as Record<string, unknown>)),
    warn() {},
    error() {},
    child: () => logger,
  };
  return { logger, lines };
}

describe('what the emulator observes of a request', () => {
  it('logs the X-Request-Id, trace id and handler a client sent, and ignores a malformed traceparent', async () => {
    const { logger, lines } = recordingLogger();
    const h = await Harness.start({ logger });
    try {
      const headers = { 'x-request-id': 'req-42', traceparent: TRACEPARENT, baggage: 'boardbot.handler=Greeter.hello' };
      await h.api('GET', '/app', undefined, { headers });
      await h.api('GET', '/boards', undefined, { headers: { traceparent: '00-zz-bad-01' } });
      const [first, second] = lines.filter((l) => String(l.url).startsWith('/api/v1/'));
      expect(first).toMatchObject({ request_id: 'req-42', trace_id: TRACE_ID, handler: 'Greeter.hello' });
      expect(second).not.toHaveProperty('trace_id');
    } finally {
      await h.close();
    }
  });

  it("explains an app's message: the handler and event its calls named, and every call of the same request", async () => {
    const h = await Harness.start();
    try {
      const asked = await h.say(h.seed.general.id, h.seed.alice.id, 'hello');
      // Alice's message is the first event of dev-bot's log: a bot handling it names event 1.
      const baggage = 'boardbot.handler=Greeter.hello,boardbot.event_id=1';
      const headers = { 'x-request-id': 'corr-7', traceparent: TRACEPARENT, baggage };
      await h.api('GET', `/users/${h.seed.alice.id}`, undefined, { headers });
      const sent = await h.api('POST', `/boards/${h.seed.general.id}/messages`, undefined, {
        headers,
        body: { content: 'Hello, Alice!', replyTo: asked.id },
      });
      await h.api('GET', '/app', undefined, { headers: { 'x-request-id': 'another-request' } });
      const why = await h.ctl('GET', `/boards/${h.seed.general.id}/messages/${sent.json.id}/why`);
      expect(why.status).toBe(200);
      expect(why.json).toMatchObject({ handler: 'Greeter.hello', request_id: 'corr-7', trace_id: TRACE_ID });
      expect(why.json.event).toMatchObject({ id: '1', name: 'message.create' });
      expect(why.json.event.data.message.id).toBe(asked.id);
      const calls = why.json.calls.map((c: { method: string; route: string; status: number }) => [
        c.method,
        c.route,
        c.status,
      ]);
      expect(calls).toEqual([
        ['GET', '/api/v1/users/:userId', 200],
        ['POST', '/api/v1/boards/:boardId/messages', 200],
      ]);
      expect(why.json.calls[1].message_id).toBe(sent.json.id);
      expect(why.json.calls[1].duration_ms).toBeGreaterThanOrEqual(0);
      const person = await h.ctl('GET', `/boards/${h.seed.general.id}/messages/${asked.id}/why`);
      expect(person.json).toMatchObject({ handler: null, event: null, calls: [] });
    } finally {
      await h.close();
    }
  });

  it('serves /metrics that count requests by route template and status, and pass promtool', async () => {
    const h = await Harness.start();
    try {
      await h.api('GET', '/app');
      await h.api('GET', '/app');
      await h.api('GET', '/app', 'wrong-token');
      await h.say(h.seed.general.id, h.seed.alice.id, 'hi');
      const res = await h.request('GET', '/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      const text = res.text;
      expect(sample(text, 'boardbot_emulator_requests_total', { route: '/api/v1/app', status: '200' })).toBe(2);
      expect(sample(text, 'boardbot_emulator_requests_total', { route: '/api/v1/app', status: '401' })).toBe(1);
      expect(sample(text, 'boardbot_emulator_stored_messages')).toBe(1);
      expect(sample(text, 'boardbot_emulator_gateway_streams')).toBe(0);
      expect(text).not.toContain(h.seed.general.id);
      const lint = await promtoolCheck(text);
      expect(lint.output).toBe('');
      expect(lint.code).toBe(0);
    } finally {
      await h.close();
    }
  });
});

describe('messageIdOf', () => {
  it('reads the id from the start of a message, and falls back to parsing any other shape', () => {
    expect(messageIdOf('{"id":"0b7c5c6e-2f0a-4d7e-9a40-8f5d0c1e2b3a","board_id":"x"}')).toBe(
      '0b7c5c6e-2f0a-4d7e-9a40-8f5d0c1e2b3a',
    );
    expect(messageIdOf('{"board_id":"x","id":"later"}')).toBe('later');
    expect(messageIdOf('{"id":"a\\"b"}')).toBe('a"b');
    expect(messageIdOf('{"id":7}')).toBeUndefined();
    expect(messageIdOf('not json')).toBeUndefined();
  });
});
