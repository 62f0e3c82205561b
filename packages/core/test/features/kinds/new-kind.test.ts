import { type HandlerContext, Services, UseGuards } from '@boardbot/core';
import {
  buildRoutes,
  Container,
  Dispatcher,
  describePolicies,
  EVENT_KINDS,
  keyBasis,
  Telemetry,
  writeKey,
} from '@boardbot/core/internal';
import type { GatewayDispatch } from '@boardbot/gateway';
import { silentLogger } from '@boardbot/protocol';
import { RestClient } from '@boardbot/rest';
import { message, ready, sendJson, startLoopbackServer } from '@boardbot/test-support';
import { TestClock } from '@boardbot/testing';
import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { OnShout, type ShoutContext, shoutKind } from './shout/shout-kind.js';

const quiet = (ctx: HandlerContext) => !('message' in ctx && ctx.message.content?.includes('SECRET'));

class Loud {
  @OnShout()
  @UseGuards(quiet)
  answer(_ctx: ShoutContext, words: string[]) {
    if (words.includes('FAIL')) throw new Error('shouted to fail');
    return `heard ${words.length} words`;
  }
}

describe('a new kind of handler, added from its own folder with one registration line', async () => {
  const server = await startLoopbackServer((req, res) => sendJson(res, 200, message(900, { content: req.body })));
  const rest = new RestClient({ token: 'bb_test', baseUrl: server.baseUrl });
  const routes = buildRoutes(
    [{ cls: Loud, messageListeners: [], eventListeners: [], schedules: [], ...describePolicies(Loud) }],
    new Container([]),
  );
  const dispatcher = new Dispatcher({
    routes,
    kinds: [...EVENT_KINDS, shoutKind],
    middleware: [],
    rest,
    app: () => ready().app,
    log: silentLogger,
    clock: new TestClock('2026-11-21T10:00:00Z'),
    services: new Services(),
    handlerTimeoutMs: 30_000,
    errorReply: 'Something went wrong.',
    onError: undefined,
    exhaustedInteraction: 'error',
    telemetry: new Telemetry(trace.getTracerProvider()),
  });
  afterAll(async () => {
    await rest.close();
    await server.close();
  });
  const said = () => server.received.map((r) => JSON.parse(r.body).content as string);
  const shout = (seq: number, content: string): GatewayDispatch =>
    ({
      name: 'message.create',
      id: `e-${seq}`,
      data: { type: 'message.create', message: message(seq, { content }) },
    }) as GatewayDispatch;

  it('runs its handler through the chain: arguments from the kind, its result settled by the kind, keys as any run', async () => {
    const event = shout(1, 'HELLO THERE');
    expect(dispatcher.handles(event)).toBe(true);
    expect(dispatcher.handles(shout(2, 'hello there'))).toBe(false);
    await dispatcher.dispatch(event);
    expect(said()).toEqual(['HEARD 2 WORDS']);
    const run = { keyBasis: keyBasis(event), handler: 'Loud.answer' };
    expect(server.received[0]?.headers['idempotency-key']).toBe(writeKey(run, 0));
  });

  it("refuses with the kind's own words when a guard denies, and apologises when the handler fails", async () => {
    server.received.length = 0;
    await dispatcher.dispatch(shout(3, 'MY SECRET'));
    const outcome = await dispatcher.dispatch(shout(4, 'PLEASE FAIL'));
    expect(said()).toEqual(['no shouting here', 'Something went wrong.']);
    expect(outcome).toEqual({ failed: true, abandoned: false });
  });
});
