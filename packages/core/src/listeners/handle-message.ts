import { randomUUID } from 'node:crypto';
import type { Message } from '@boardbot/protocol';
import { isReplyBody } from '../kernel/body.js';
import type { CoreEnv } from '../kernel/env.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import type { PolicyChain } from '../policies/chain.js';
import type { HandlerSteps } from '../policies/steps.js';
import { AuthorCache } from './authors.js';
import type { BurstRun } from './bursts/burst-keeper.js';
import { Bursts, type BurstWorkers, unheld } from './bursts/bursts.js';
import { matchMessage } from './match-message.js';
import { MessageContextImpl } from './message-context.js';
import type { MessageEventName } from './metadata.js';
import type { MessageTarget } from './target.js';

export type { MessageTarget } from './target.js';

/** Message listeners, by event. */
export type MessageTable = Readonly<Record<MessageEventName, readonly MessageTarget[]>>;

/** The message of a message event, and the event's name; undefined for any other event. */
function messageEvent(event: BotEvent): { name: MessageEventName; message: Message } | undefined {
  if (event.unknown) return undefined;
  switch (event.name) {
    case 'message.create':
    case 'message.edit':
    case 'message.delete':
      return { name: event.name, message: event.data.message };
    default:
      return undefined;
  }
}

/**
 * A message listener's steps: guards, cooldown (per author, or per webhook name), middleware; a
 * listener is held back silently, unless its guard chose words for the person; a returned body is
 * the reply. The input is who the cooldown counts.
 */
const steps: HandlerSteps<MessageContextImpl, string> = {
  guards: {
    context: (ctx) => ctx,
    denied: async (ctx, result) => {
      if (typeof result === 'string') await ctx.reply(result);
    },
  },
  arguments: (ctx) => [ctx],
  cooldown: { who: (_ctx, who) => who, board: (ctx) => ctx.boardId, cooling: async () => {} },
  middleware: (ctx) => ctx,
  settle: async (ctx, result) => {
    if (isReplyBody(result) && !ctx.replied) await ctx.reply(result);
  },
  answer: (ctx) => ctx,
};

/**
 * Handles the message events: runs every listener whose matcher accepts the message (the bot's own
 * messages only reach listeners that ask for them), each through the policy chain; those marked
 * `afterOthers` once the rest are done.
 */
export class MessageHandler {
  private readonly authors: AuthorCache;
  private readonly bursts: Bursts;

  /**
   * @param env - the bot's environment
   * @param chain - the policy chain
   * @param listeners - the message listener table
   * @param workers - where a burst's run takes a worker, and its metrics
   */
  constructor(
    private readonly env: CoreEnv,
    private readonly chain: PolicyChain,
    private readonly listeners: MessageTable,
    workers: BurstWorkers = {},
  ) {
    this.authors = new AuthorCache(env.rest, () => env.clock.now());
    this.bursts = new Bursts(listeners['message.create'], env, workers);
  }

  /** Whether any listener may see this message event (before its matcher is asked). */
  handles(event: BotEvent): boolean {
    const seen = messageEvent(event);
    return seen !== undefined && this.candidates(seen.name, seen.message).length > 0;
  }

  /** The listeners of `name` that may see the message: a bot answering its own messages loops, so only listeners that ask see them. */
  private candidates(name: MessageEventName, message: Message): readonly MessageTarget[] {
    const own = message.author !== null && message.author === this.env.app().bot_user_id;
    return own ? this.listeners[name].filter((target) => target.listener.includeOwn) : this.listeners[name];
  }

  /** Handles a message event (other events are not this kind's); never rejects. */
  async handle(dispatched: BotEvent, event: EventMeta): Promise<void> {
    const seen = messageEvent(dispatched);
    if (!seen) return;
    const { name, message } = seen;
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
    const run = ({ target, match }: (typeof matched)[number]) => {
      const launch = ({ meta, skipped, opened }: BurstRun) =>
        this.chain.run(
          steps,
          target,
          meta,
          { log, correlationId },
          (deps) => {
            opened(deps.run);
            return new MessageContextImpl(deps, name, message, author, match, skipped);
          },
          who,
        );
      // A held message's run is the burst's: the event is done with it once it is held.
      return this.bursts.take(target, { message, meta: event, launch }) ?? launch(unheld(event));
    };
    // One listener (the usual case): nothing to wait on together, nor an order to keep.
    if (matched.length === 1) return run(matched[0] as (typeof matched)[number]);
    // Listeners `afterOthers` read what the others write for this message: they wait for them.
    await Promise.all(matched.filter((m) => m.target.listener.afterOthers !== true).map(run));
    await Promise.all(matched.filter((m) => m.target.listener.afterOthers === true).map(run));
  }

  /** Runs nothing more for the bursts held (at stop): their messages stay before the resume point. */
  close(): void {
    this.bursts.close();
  }
}
