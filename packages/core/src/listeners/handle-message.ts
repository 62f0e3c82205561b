import type { Message } from '@boardbot/protocol';
import type { EditableAnswers } from '../editable/editable-answers.js';
import { EditableLinks } from '../editable/editable-links.js';
import type { BotEvent, EventMeta } from '../kernel/event.js';
import { readMetadataList } from '../kernel/metadata.js';
import type { EventKind, KindDefinition, KindHost } from '../policies/kind.js';
import { AuthorCache } from './authors.js';
import type { BurstRun } from './bursts/burst-keeper.js';
import { Bursts, unheld } from './bursts/bursts.js';
import { matchMessage } from './match-message.js';
import { MessageContextImpl } from './message-context.js';
import { startMessageRun } from './message-run.js';
import { MESSAGE_RULES } from './message-stages.js';
import { MESSAGE_LISTENERS_KEY, type MessageEventName, type MessageListenerMetadata } from './metadata.js';
import type { MessageTarget } from './target.js';

/** A listener to run for a message event: for an edit, an `@OnMessage` marked editable runs again. */
interface Candidate {
  target: MessageTarget;
  rerun: boolean;
}

/** A candidate whose matcher accepted the message, with what it matched. */
interface Found extends Candidate {
  match: Exclude<ReturnType<typeof matchMessage>, false>;
}

/** A message event, and the listeners that may see it (their matchers are asked when it runs). */
export interface MessageRoute {
  name: MessageEventName;
  message: Message;
  candidates: Candidate[];
}

/** Message listeners (`@OnMessage`, `@OnMessageEdit`, `@OnMessageDelete`). */
export const MESSAGE_KIND: KindDefinition<MessageListenerMetadata> = {
  name: 'message listener',
  decorators: ['@OnMessage', '@OnMessageEdit', '@OnMessageDelete'],
  describe: (cls) => readMetadataList<MessageListenerMetadata>(MESSAGE_LISTENERS_KEY, cls),
  create: (host) => new MessageHandler(host),
};

/**
 * Handles the message events: runs every listener whose matcher accepts the message (the bot's own
 * messages only reach listeners that ask for them), each through the runner; those marked
 * `afterOthers` once the rest are done.
 */
class MessageHandler implements EventKind<MessageRoute> {
  private readonly authors: AuthorCache;
  private readonly bursts: Bursts;
  private readonly links: EditableLinks;
  /**
   * The candidates of each event, made once: for others' messages, and for the bot's own (only the
   * listeners that ask for them). An edit's include the editable `@OnMessage` listeners, run again.
   */
  private readonly candidates: Record<MessageEventName, { others: Candidate[]; own: Candidate[] }>;

  constructor(private readonly host: KindHost<MessageListenerMetadata>) {
    const { env } = host;
    const listeners: Record<MessageEventName, MessageTarget[]> = {
      'message.create': [],
      'message.edit': [],
      'message.delete': [],
    };
    for (const { target, meta } of host.handlers) listeners[meta.event].push({ ...target, listener: meta });
    this.authors = new AuthorCache(env.rest, () => env.clock.now());
    this.bursts = new Bursts(listeners['message.create'], host);
    this.links = new EditableLinks(env);
    const editable = listeners['message.create'].filter((target) => target.listener.editable !== undefined);
    const candidatesOf = (name: MessageEventName) => {
      const others: Candidate[] = listeners[name].map((target) => ({ target, rerun: false }));
      if (name === 'message.edit') for (const target of editable) others.push({ target, rerun: true });
      return { others, own: others.filter((c) => c.target.listener.includeOwn) };
    };
    this.candidates = {
      'message.create': candidatesOf('message.create'),
      'message.edit': candidatesOf('message.edit'),
      'message.delete': candidatesOf('message.delete'),
    };
  }

  /**
   * The listeners of the event that may see its message (for an edit, the editable `@OnMessage` ones
   * too): a bot answering its own messages loops, so only listeners that ask see them.
   */
  route(event: BotEvent): MessageRoute | undefined {
    if (event.unknown) return undefined;
    const { name } = event;
    if (name !== 'message.create' && name !== 'message.edit' && name !== 'message.delete') return undefined;
    const { message } = event.data;
    const own = message.author !== null && message.author === this.host.env.app().bot_user_id;
    const candidates = own ? this.candidates[name].own : this.candidates[name].others;
    return candidates.length > 0 ? { name, message, candidates } : undefined;
  }

  async handle({ name, message, candidates }: MessageRoute, event: EventMeta): Promise<void> {
    const { env, runner } = this.host;
    const found: Found[] = [];
    let editable = false;
    for (const { target, rerun } of candidates) {
      try {
        const match = matchMessage(target.listener, message);
        if (match === false) continue;
        found.push({ target, match, rerun });
        editable ||= target.listener.editable !== undefined;
      } catch (error) {
        env.log.error({ err: error, handler: target.label, event_id: event.id }, 'message matcher threw');
      }
    }
    // An edit re-runs an editable listener only where its answers to the message are linked, and an
    // event a later one of the message superseded is not run again after a crash.
    const matched = editable ? await this.linkedOf(found, message, event) : found;
    if (matched.length === 0) return;
    const { correlationId, log, author } = await startMessageRun(env.log, this.authors, event, message);
    const run = ({ target, match, rerun }: Found) => {
      let answers: EditableAnswers | undefined;
      const launch = async ({ meta, skipped, skippedCount, opened }: BurstRun) => {
        // A re-run on an edit pays the cooldown like any run (its use is the edit event's own).
        await runner.run({
          rules: MESSAGE_RULES,
          target,
          event: meta,
          log,
          correlationId,
          context: (deps) => {
            opened(deps.run);
            answers = target.listener.editable ? this.links.answers(deps, message, target.label) : undefined;
            return new MessageContextImpl(deps, name, message, author, match, skipped, skippedCount, answers);
          },
        });
        await this.links.finish(answers, log);
      };
      // A held message's run is the burst's: the event is done with it once it is held.
      if (rerun) return launch(unheld(event));
      return this.bursts.take(target, { message, meta: event, launch }) ?? launch(unheld(event));
    };
    // One listener (the usual case): nothing to wait on together, nor an order to keep.
    if (matched.length === 1) return run(matched[0] as Found);
    // Listeners `afterOthers` read what the others write for this message: they wait for them.
    await Promise.all(matched.filter((m) => m.target.listener.afterOthers !== true).map(run));
    await Promise.all(matched.filter((m) => m.target.listener.afterOthers === true).map(run));
  }

  /** The listeners of `found` that may run: an editable one only where {@link EditableLinks.mayRun} says so. */
  private async linkedOf(found: Found[], message: Message, event: EventMeta): Promise<Found[]> {
    const linked = await Promise.all(
      found.map(
        (m) => m.target.listener.editable === undefined || this.links.mayRun(message, m.target.label, event, m.rerun),
      ),
    );
    return found.filter((_, i) => linked[i]);
  }

  /** Runs nothing more for the bursts held (at stop): their messages stay before the resume point. */
  close(): void {
    this.bursts.close();
  }
}
