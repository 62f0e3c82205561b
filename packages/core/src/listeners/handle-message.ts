import type { Message } from '@boardbot/protocol';
import type { EditableAnswers } from '../editable/editable-answers.js';
import { EditableLinks } from '../editable/editable-links.js';
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
import { startMessageRun } from './message-run.js';
import type { MessageEventName } from './metadata.js';
import type { MessageTarget } from './target.js';

/** Message listeners, by event. */
export type MessageTable = Readonly<Record<MessageEventName, readonly MessageTarget[]>>;

/** The message of a message event, and the event's name; undefined for any other event. */
function messageEvent(event: BotEvent): { name: MessageEventName; message: Message } | undefined {
  if (event.unknown) return undefined;
  const { name } = event;
  if (name !== 'message.create' && name !== 'message.edit' && name !== 'message.delete') return undefined;
  return { name, message: event.data.message };
}

/** Who a message counts as, for cooldowns and refusals: its author, or the webhook by its name. */
function whoOf(message: Message): string {
  return message.author ?? `webhook:${message.webhook_name ?? ''}`;
}

/**
 * A message listener's steps: guards, cooldown (per author, or per webhook name), middleware; a
 * listener is held back silently, unless its guard chose words for the person (said at most once a
 * window per person and listener, through the chain's refusal throttle); a returned body is the
 * reply. The input is who the cooldown counts.
 * @param chain - the policy chain, whose throttle the guards' words pass
 */
const listenerSteps = (chain: PolicyChain): HandlerSteps<MessageContextImpl, string> => ({
  guards: {
    context: (ctx) => ctx,
    denied: async (ctx, result, target) => {
      if (typeof result === 'string' && chain.mayRefuse(whoOf(ctx.message), target.label, ctx.log)) {
        await ctx.reply(result);
      } else ctx.heldBack();
    },
  },
  arguments: (ctx) => [ctx],
  cooldown: { who: (_ctx, who) => who, board: (ctx) => ctx.boardId, cooling: async (ctx) => ctx.heldBack() },
  middleware: (ctx) => ctx,
  settle: async (ctx, result) => {
    if (isReplyBody(result) && !ctx.replied) await ctx.reply(result);
  },
  answer: (ctx) => ctx,
});

/** A listener to run for a message event: for an edit, an `@OnMessage` marked editable runs again. */
interface Candidate {
  target: MessageTarget;
  rerun: boolean;
}

/**
 * Handles the message events: runs every listener whose matcher accepts the message (the bot's own
 * messages only reach listeners that ask for them), each through the policy chain; those marked
 * `afterOthers` once the rest are done.
 */
export class MessageHandler {
  private readonly authors: AuthorCache;
  private readonly bursts: Bursts;
  private readonly links: EditableLinks;
  /** The `@OnMessage` listeners marked editable: they run again on their message's edit. */
  private readonly editable: readonly MessageTarget[];
  private readonly steps: HandlerSteps<MessageContextImpl, string>;

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
    this.links = new EditableLinks(env);
    this.editable = listeners['message.create'].filter((target) => target.listener.editable !== undefined);
    this.steps = listenerSteps(chain);
  }

  /** Whether any listener may see this message event (before its matcher is asked). */
  handles(event: BotEvent): boolean {
    const seen = messageEvent(event);
    return seen !== undefined && this.candidates(seen.name, seen.message).length > 0;
  }

  /**
   * The listeners of `name` that may see the message (for an edit, the editable `@OnMessage` ones
   * too): a bot answering its own messages loops, so only listeners that ask see them.
   */
  private candidates(name: MessageEventName, message: Message): Candidate[] {
    const own = message.author !== null && message.author === this.env.app().bot_user_id;
    const all: Candidate[] = this.listeners[name].map((target) => ({ target, rerun: false }));
    if (name === 'message.edit') for (const target of this.editable) all.push({ target, rerun: true });
    return own ? all.filter((c) => c.target.listener.includeOwn) : all;
  }

  /** Handles a message event (other events are not this kind's); never rejects. */
  async handle(dispatched: BotEvent, event: EventMeta): Promise<void> {
    const seen = messageEvent(dispatched);
    if (!seen) return;
    const { name, message } = seen;
    const found = this.candidates(name, message).flatMap(({ target, rerun }) => {
      try {
        const match = matchMessage(target.listener, message);
        return match === false ? [] : [{ target, match, rerun }];
      } catch (error) {
        this.env.log.error({ err: error, handler: target.label, event_id: event.id }, 'message matcher threw');
        return [];
      }
    });
    // An edit re-runs an editable listener only where its answers to the message are linked, and an
    // event a later one of the message superseded is not run again after a crash.
    const linked = await Promise.all(
      found.map(
        (m) =>
          m.target.listener.editable === undefined ||
          this.links.mayRun(message, m.target.label, { id: event.id, edited: m.rerun }),
      ),
    );
    const matched = found.filter((_, i) => linked[i]);
    if (matched.length === 0) return;
    const { correlationId, log, author } = await startMessageRun(this.env.log, this.authors, event, message);
    const who = whoOf(message);
    const run = ({ target, match, rerun: again }: (typeof matched)[number]) => {
      let answers: EditableAnswers | undefined;
      const launch = async ({ meta, skipped, skippedCount, opened }: BurstRun) => {
        // A re-run on an edit pays the cooldown like any run (its use is the edit event's own).
        await this.chain.run(
          this.steps,
          target,
          meta,
          { log, correlationId },
          (deps) => {
            opened(deps.run);
            answers = target.listener.editable ? this.links.answers(deps, message, target.label) : undefined;
            return new MessageContextImpl(deps, name, message, author, match, skipped, skippedCount, answers);
          },
          who,
        );
        await this.links.finish(answers, log);
      };
      // A held message's run is the burst's: the event is done with it once it is held.
      if (again) return launch(unheld(event));
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
