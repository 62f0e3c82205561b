import { randomUUID } from 'node:crypto';
import type { Message } from '@boardbot/protocol';
import { isReplyBody } from '../kernel/body.js';
import { type CoreEnv, contextDeps } from '../kernel/env.js';
import { HandlerRun } from '../kernel/scope.js';
import type { EventMeta, PolicedMethod, Policies, Refusals } from '../policies/pipeline.js';
import { AuthorCache } from './authors.js';
import type { MessageContext } from './context.js';
import { matchMessage } from './match-message.js';
import { MessageContextImpl } from './message-context.js';
import type { MessageEventName, MessageListenerMetadata } from './metadata.js';

/** A message listener method, with its matcher and policies. */
export type MessageTarget = PolicedMethod & { listener: MessageListenerMetadata };

/** Message listeners, by event. */
export type MessageTable = Readonly<Record<MessageEventName, readonly MessageTarget[]>>;

// A listener is held back silently, unless its guard chose words for the person.
const refusals: Refusals<MessageContext> = {
  denied: async (ctx, result) => {
    if (typeof result === 'string') await ctx.reply(result);
  },
  cooling: async () => {},
};

/**
 * Handles the message events: runs every listener whose matcher accepts the message (the bot's own
 * messages only reach listeners that ask for them), each under its guards, cooldown, middleware and
 * supervision; a returned body is the reply.
 */
export class MessageHandler {
  private readonly authors: AuthorCache;

  /**
   * @param env - the bot's environment
   * @param policies - the policy pipeline
   * @param listeners - the message listener table
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly policies: Policies,
    private readonly listeners: MessageTable,
  ) {
    this.authors = new AuthorCache(env.rest, () => env.clock.now());
  }

  /** Whether any listener may see this message event (before its matcher is asked). */
  sees(name: MessageEventName, message: Message): boolean {
    return this.candidates(name, message).length > 0;
  }

  /** The listeners of `name` that may see the message: a bot answering its own messages loops, so only listeners that ask see them. */
  private candidates(name: MessageEventName, message: Message): readonly MessageTarget[] {
    const own = message.author !== null && message.author === this.env.app().bot_user_id;
    return own ? this.listeners[name].filter((target) => target.listener.includeOwn) : this.listeners[name];
  }

  /** Handles one message event; never rejects. */
  async handle(event: EventMeta, name: MessageEventName, message: Message): Promise<void> {
    const matched = this.candidates(name, message).flatMap((target) => {
      try {
        const match = matchMessage(target.listener, message);
        return match === false ? [] : [{ target, match }];
      } catch (error) {
        this.env.log.error({ err: error, handler: target.label, event_id: event.id }, 'message matcher threw');
        return [];
      }
    });
    if (matched.length === 0) return;
    const correlationId = randomUUID();
    const log = this.env.log.child({
      event_id: event.id,
      correlation_id: correlationId,
      message_id: message.id,
      board_id: message.board_id,
    });
    const author =
      message.author === null
        ? null
        : await this.authors.get(message.author, log, {
            requestId: correlationId,
            logger: log,
            traceContext: event.trace,
          });
    const who = message.author ?? `webhook:${message.webhook_name ?? ''}`;
    await Promise.all(
      matched.map(({ target, match }) => {
        const run = new HandlerRun({
          eventId: event.id,
          keyBasis: event.keyBasis,
          handler: target.label,
          correlationId,
          log,
          replayed: event.replayed,
          trace: event.trace,
          outcome: event.outcome,
        });
        const ctx = new MessageContextImpl(contextDeps(this.env, run), name, message, author, match);
        return this.policies.run(target, run, ctx, ctx, async () => {
          if (!(await this.policies.passGuards<MessageContext>(target, ctx, refusals))) return;
          if (!(await this.policies.passCooldown<MessageContext>(target, ctx, who, refusals))) return;
          await this.policies.around(ctx, async () => {
            const result = await (target.instance[target.method] as Function).call(target.instance, ctx);
            if (isReplyBody(result) && !ctx.replied) await ctx.reply(result);
          });
        });
      }),
    );
  }
}
