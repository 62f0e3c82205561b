import type {
  Embed,
  ErrorCode,
  GatewayEvent,
  GatewayEventMap,
  GatewayEventName,
  Interaction,
  Message,
  SendMessageBody,
} from '@boardbot/protocol';
import { describe, expectTypeOf, it } from 'vitest';

describe('protocol types', () => {
  it('ties each event name to its payload', () => {
    expectTypeOf<GatewayEventMap['message.create']['message']>().toEqualTypeOf<Message>();
    expectTypeOf<GatewayEventMap['interaction.create']['interaction']>().toEqualTypeOf<Interaction>();
    expectTypeOf<GatewayEventMap['ready']['resumed']>().toEqualTypeOf<boolean>();
    expectTypeOf<keyof GatewayEventMap>().toEqualTypeOf<GatewayEventName>();
    expectTypeOf<GatewayEvent['type']>().toEqualTypeOf<GatewayEventName>();
  });

  it('types nullable message fields and stored embeds precisely', () => {
    expectTypeOf<Message['content']>().toEqualTypeOf<string | null>();
    expectTypeOf<Message['embeds']>().toEqualTypeOf<Embed[] | null>();
    expectTypeOf<Message['seq']>().toEqualTypeOf<number>();
  });

  it('makes every send field optional and names the reply target replyTo', () => {
    expectTypeOf<SendMessageBody>().toEqualTypeOf<{ content?: string; embeds?: Embed[]; replyTo?: string }>();
  });

  it('knows the contract error codes', () => {
    expectTypeOf<'rate_limited'>().toExtend<ErrorCode>();
    expectTypeOf<'teapot'>().not.toExtend<ErrorCode>();
  });
});
