import { randomUUID } from 'node:crypto';
import {
  ContextBase,
  type ContextDeps,
  definePlugin,
  type KindDefinition,
  type KindMethod,
  type KindRules,
  type Stage,
} from '@boardbot/core';
import type { Message } from '@boardbot/protocol';

// A kind of handler written outside core, with the public API only (docs/plugins.md, "A kind of
// handler"): `@OnReplyToMe()` methods run for a person's reply to one of the bot's own messages.

const REPLY_TO_ME = 'example:reply-to-me';

/** Runs the method for each reply to one of the bot's messages: `(ctx, text)`; a returned text is the answer. */
export function OnReplyToMe(): MethodDecorator {
  return (target, method) => {
    const methods: KindMethod[] = Reflect.getMetadata(REPLY_TO_ME, target.constructor) ?? [];
    Reflect.defineMetadata(REPLY_TO_ME, [...methods, { method: String(method) }], target.constructor);
  };
}

/** What an `@OnReplyToMe` method gets: the reply, and a way to answer it. */
export class ReplyContext extends ContextBase {
  readonly kind = 'reply' as const;
  private answers = 0;

  /**
   * @param deps - what the runtime provides
   * @param message - the person's reply
   */
  constructor(
    deps: ContextDeps,
    readonly message: Message,
  ) {
    super(deps);
  }

  /** Answers sent so far (the runtime's apology is skipped when an error hook answered). */
  get answerCount(): number {
    return this.answers;
  }

  /** Answers the reply, as a reply to it: the run's next write, with the run's next key. */
  async reply(content: string): Promise<Message> {
    const sent = await this.write('reply', () =>
      this.rest.sendMessage(this.message.board_id, { content, replyTo: this.message.id }),
    );
    this.answers++;
    return sent;
  }
}

declare module '@boardbot/core' {
  interface HandlerContexts {
    reply: ReplyContext;
  }
}

/** How its runs meet the stages: no guards or cooldown (its context is not a guarded one); it answers an apology. */
const RULES: KindRules<ReplyContext> = { answers: true };
const ours = (_target: unknown, rules: KindRules) => rules === RULES;

/** Its own stages: the method gets the reply's text; a returned text is the answer. */
const stages: Stage[] = [
  {
    name: 'reply-to-me arguments',
    phase: 'arguments',
    applies: ours,
    run(pass) {
      const ctx = pass.ctx as ReplyContext;
      pass.args = [ctx, ctx.message.content ?? ''];
    },
  },
  {
    name: 'reply-to-me answer',
    phase: 'result',
    applies: ours,
    run: ({ ctx, result }) =>
      typeof result === 'string' ? (ctx as ReplyContext).reply(result).then(() => {}) : undefined,
  },
];

/**
 * The kind, remembering the ids of the bot's last `remembered` messages.
 * @param remembered - how many
 */
const replyToMeKind = (remembered: number): KindDefinition => ({
  name: 'reply to me',
  decorators: ['@OnReplyToMe'],
  describe: (cls) => Reflect.getMetadata(REPLY_TO_ME, cls) ?? [],
  create: (host) => {
    // The bot's own messages, as their events go by: a reply names the message it replies to.
    const own = new Set<string>();
    return {
      route(event) {
        if (event.unknown || event.name !== 'message.create' || host.handlers.length === 0) return undefined;
        const { message } = event.data;
        if (message.author === host.env.app().bot_user_id) {
          own.add(message.id);
          if (own.size > remembered) own.delete(own.values().next().value as string);
          return undefined;
        }
        return message.reply_to !== null && own.has(message.reply_to) ? message : undefined;
      },
      async handle(message: Message, event) {
        const correlationId = randomUUID();
        const log = host.env.log.child({ event_id: event.id, correlation_id: correlationId });
        await Promise.all(
          host.handlers.map(({ target }) =>
            host.runner.run({
              rules: RULES,
              target,
              event,
              log,
              correlationId,
              context: (deps) => new ReplyContext(deps, message),
            }),
          ),
        );
      },
    };
  },
});

/** The plugin that gives a bot `@OnReplyToMe`: `remembered` of its own messages can be replied to (1000). */
export const replyToMe = definePlugin((options: { remembered?: number }) => ({
  name: 'example-reply-to-me',
  kinds: [replyToMeKind(options.remembered ?? 1000)],
  stages,
}));
