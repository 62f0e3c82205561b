import { type MessageContext, OnMessage } from '@boardbot/core';

/** Listens to the boards' messages: answers "ping" with "pong", as a reply to it. */
export class Ping {
  @OnMessage(/^ping$/i)
  pong(ctx: MessageContext) {
    return ctx.reply('pong');
  }
}
