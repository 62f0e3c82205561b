import type { Message } from '@boardbot/protocol';
import { HttpFaultProxy } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing';
import { describe, expect, it } from 'vitest';
import { expectRepliedOnceInOrder, post, waitForReplies } from './support/replies.js';
import { useScenario } from './support/scenario.js';

// docs/production.md, "Backpressure" (issue 40, finding 4): messages a board's share of the intake
// set aside keep their place before the resume point until they are read back and handled. Here the
// read-back is refused (a proxy answers the board's message list with 400), another board's message
// is handled after them and the resume point saved, then the bot is killed with SIGKILL: the next
// process answers every message once, in order. Were the set-aside messages passed, the point
// would stand after the other board's message and they would never be answered.

const openScenario = useScenario();

describe('messages set aside across a SIGKILL', () => {
  it('are read back by the next process: each answered once, in order, none lost', async () => {
    const clock = new TestClock('2026-03-02T09:00:00Z');
    const s = await openScenario({ now: () => clock.now() });
    const { platform } = s;
    const general = await platform.board('general');
    // The bots talk to the platform through the proxy (both: the resume point is kept per API URL).
    const proxy = await HttpFaultProxy.start(platform.urls.apiUrl);
    try {
      // A share of 2 events per board once 10 are held in all (of 20).
      const env = { BOARDBOT_API_URL: proxy.apiUrl, MAX_PENDING_EVENTS: '20' };
      const first = s.startBot({ ...env, BURST_CLOCK: String(clock.now()) });
      await first.started();
      const slow = await platform.person('alice').say('slow 1');
      const flood = await post(s, 25, 'flood');
      await first.waitFor((l) => l.msg?.startsWith('board over its share of the intake') === true);
      const other = await post(s, 1, 'other', 'random');
      await waitForReplies(s, other, 'random');

      // The board's messages list is refused from now on: what was set aside cannot be read back.
      const list = `/api/v1/boards/${general.id}/messages`;
      const refusal = { status: 400, body: { error: { code: 'invalid_request', message: 'refused by the test' } } };
      proxy.faultWith((request) => (request.method === 'GET' && request.url.startsWith(list) ? refusal : undefined));
      await first.advance(clock, 1000);
      await first.waitFor((l) => l.msg === 'reading set-aside messages back failed: trying again');
      const after = await post(s, 1, 'after', 'random');
      await waitForReplies(s, after, 'random');
      // A flush of the resume point falls due (positionFlushMs), after the other board's message.
      const saves = first.lines.filter((l) => l.msg === 'fixture saving position').length;
      await first.advance(clock, 200);
      await first.waitFor(() => first.lines.filter((l) => l.msg === 'fixture saving position').length > saves);
      await first.kill();

      proxy.faultWith(() => undefined);
      const second = s.startBot(env);
      await second.started();
      await waitForReplies(s, flood);
      expect(await second.stop()).toBe(0);
      await expectRepliedOnceInOrder(s, flood);
      await expectRepliedOnceInOrder(s, [slow as Message], 'general', (m) => `slow ${m.content}`);
      await expectRepliedOnceInOrder(s, [...other, ...after], 'random');
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
