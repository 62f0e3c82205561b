import type { MessageContext } from '@boardbot/core';
import {
  type EventKind,
  type HandlerSteps,
  type HandlerTarget,
  type KindFactory,
  MessageContextImpl,
} from '@boardbot/core/internal';
import type { Message } from '@boardbot/protocol';

// A kind of handler the framework does not have, built only from its own folder: `@OnShout()`
// methods run for messages written in capitals, get the message's words, and are refused with the
// kind's own words. It declares its steps (guards and cooldown, no middleware); the chain orders them.

const SHOUT_KEY = 'test:shout';

/** Runs the method for each message written in capitals: `(ctx, words)`. */
export function OnShout(): MethodDecorator {
  return (target, method) => {
    const methods: string[] = Reflect.getMetadata(SHOUT_KEY, target.constructor) ?? [];
    Reflect.defineMetadata(SHOUT_KEY, [...methods, String(method)], target.constructor);
  };
}

const shouted = (message: Message) =>
  /[A-Z]/.test(message.content ?? '') && message.content === message.content?.toUpperCase();

const steps: HandlerSteps<MessageContextImpl, Message> = {
  guards: {
    context: (ctx) => ctx,
    denied: async (ctx) => {
      await ctx.reply('no shouting here');
    },
  },
  arguments: (ctx, message): readonly unknown[] => [ctx, (message.content ?? '').split(' ')],
  cooldown: { who: (_ctx, message) => message.author ?? '', board: (ctx) => ctx.boardId, cooling: async () => {} },
  settle: async (ctx, result) => {
    if (typeof result === 'string') await ctx.reply(result.toUpperCase());
  },
  answer: (ctx) => ctx,
};

/** The kind: registered with one line, `kinds: [...EVENT_KINDS, shoutKind]`. */
export const shoutKind: KindFactory = ({ env, chain, routes }): EventKind => {
  const targets: HandlerTarget[] = routes.classes.flatMap(({ cls, target }) =>
    ((Reflect.getMetadata(SHOUT_KEY, cls) as string[] | undefined) ?? []).map((method) => target(method)),
  );
  return {
    handles: (event) =>
      targets.length > 0 && !event.unknown && event.name === 'message.create' && shouted(event.data.message),
    handle: async (event, meta) => {
      if (event.unknown || event.name !== 'message.create' || !shouted(event.data.message)) return;
      const message = event.data.message;
      const log = env.log.child({ event_id: meta.id });
      await Promise.all(
        targets.map((target) =>
          chain.run(
            steps,
            target,
            meta,
            { log, correlationId: `shout-${meta.id}` },
            (deps) => new MessageContextImpl(deps, 'message.create', message, null, null),
            message,
          ),
        ),
      );
    },
  };
};

/** The context a shout handler gets. */
export type ShoutContext = MessageContext;
