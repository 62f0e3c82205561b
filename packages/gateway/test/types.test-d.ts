import type {
  GatewayClient,
  GatewayDispatch,
  GatewayError,
  GatewayEventMeta,
  GatewayGapInfo,
  GatewayState,
} from '@boardbot/gateway';
import type { Interaction, Message, ReadyEvent } from '@boardbot/protocol';
import { describe, expectTypeOf, it } from 'vitest';

declare const gw: GatewayClient;

describe('GatewayClient types', () => {
  it('types each known event listener by its wire name', () => {
    gw.on('ready', (e, meta) => {
      expectTypeOf(e).toEqualTypeOf<ReadyEvent>();
      expectTypeOf(meta).toEqualTypeOf<GatewayEventMeta>();
    });
    gw.on('message.create', (e) => expectTypeOf(e.message).toEqualTypeOf<Message>());
    gw.on('message.delete', (e) => expectTypeOf(e.type).toEqualTypeOf<'message.delete'>());
    gw.on('interaction.create', (e) => expectTypeOf(e.interaction).toEqualTypeOf<Interaction>());
    gw.on('gap', (g) => expectTypeOf(g).toEqualTypeOf<GatewayGapInfo>());
    gw.on('error', (err) => expectTypeOf(err).toEqualTypeOf<GatewayError>());
    // @ts-expect-error: no such event
    gw.on('message.created', () => {});
  });

  it('narrows a dispatch on unknown, then on its name', () => {
    gw.on('dispatch', (ev: GatewayDispatch) => {
      if (ev.unknown) {
        expectTypeOf(ev.data).toEqualTypeOf<unknown>();
        return;
      }
      if (ev.name === 'message.edit') expectTypeOf(ev.data.message).toEqualTypeOf<Message>();
      if (ev.name === 'ready') expectTypeOf(ev.data).toEqualTypeOf<ReadyEvent>();
    });
  });

  it('exposes the state, the resume point and the iterator', () => {
    expectTypeOf(gw.state).toEqualTypeOf<GatewayState>();
    expectTypeOf(gw.lastEventId).toEqualTypeOf<string | undefined>();
    expectTypeOf(gw.connect()).toEqualTypeOf<Promise<ReadyEvent>>();
    expectTypeOf(gw.events()).toEqualTypeOf<AsyncIterableIterator<GatewayDispatch>>();
  });
});
