import type { GatewayClient, GatewayDispatch } from '@boardbot/gateway';
import type { Message as BoardMessage, Interaction, Logger } from '@boardbot/protocol';
import { type Adapter, type ChatInstance, LockError } from 'chat';
import type { MessageIndex } from '../history/message-index.js';
import type { People } from '../people.js';
import type { BoardFormatConverter } from '../render.js';
import { channelIdOf, encodeThreadId } from '../thread-id.js';
import { mentionsName, toChatMessage } from '../to-chat-message.js';
import { runInEvent } from './event-scope.js';
import type { Progress } from './progress.js';
import { slashCommandOf } from './slash-command.js';

/** What the intake hands events to, and what it reads them with. */
export interface IntakeDeps {
  chat: ChatInstance;
  adapter: Adapter;
  gateway: GatewayClient;
  index: MessageIndex;
  progress: Progress;
  people: People;
  format: BoardFormatConverter;
  botUserId: string;
  /** The bot's username, for `@<username>` mentions. */
  userName: string;
  logger: Logger;
  /** Most events handed to Chat and not settled. */
  maxInFlight: number;
}

/** One event's handing to Chat, in its thread. */
interface Job {
  threadId: string;
  run(): Promise<unknown>;
}

/**
 * Drives Chat's processing from the event stream, in place of webhooks: each event, in the order the
 * stream delivers it, is placed in its thread (sequentially, so a reply finds its parent indexed),
 * then handed to Chat's `processMessage`, `processMessageUpdated`, `processMessageDeleted` or
 * `processSlashCommand` in the event's scope (its writes keyed from it); up to `maxInFlight` events
 * run at once. An event counts as handled once Chat's processing of it settles, failed handlers
 * included, as a webhook counts once answered; the resume point then moves past it.
 */
export class Intake {
  private readonly running = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;

  /** @param deps - Chat, the stream and the adapter's parts */
  constructor(private readonly deps: IntakeDeps) {}

  /** Starts reading the stream (already connected). */
  start(): void {
    this.loop = this.read();
  }

  /** Resolves once the stream (closed by the caller) has ended and every event handed to Chat has settled. */
  async stopped(): Promise<void> {
    await this.loop;
    await Promise.all(this.running);
    await this.deps.progress.settled();
  }

  private async read(): Promise<void> {
    const { gateway, progress, logger } = this.deps;
    for await (const event of gateway.events()) {
      while (this.running.size >= this.deps.maxInFlight) await Promise.race(this.running);
      try {
        if (await progress.begin(event.id)) {
          await progress.finish(event.id, true);
          continue;
        }
        const job = await this.prepare(event);
        if (job === undefined) {
          await progress.finish(event.id);
          continue;
        }
        await progress.handling(event.id, job.threadId);
        const done: Promise<void> = job
          .run()
          .catch((error: unknown) => logger.error({ err: error, eventId: event.id }, 'a Chat handler failed'))
          .then(() => progress.finish(event.id))
          .catch((error: unknown) => logger.error({ err: error, eventId: event.id }, 'the resume point was not saved'))
          .finally(() => this.running.delete(done));
        this.running.add(done);
      } catch (error) {
        // Left open: the resume point stays behind it, so the next start hands it to Chat again.
        logger.error(
          { err: error, eventId: event.id },
          'an event could not be read; it is handled again on the next start',
        );
      }
    }
  }

  private async prepare(event: GatewayDispatch): Promise<Job | undefined> {
    if (event.unknown) return undefined;
    switch (event.name) {
      case 'message.create':
        return this.created(event.id, event.data.message);
      case 'message.edit':
        return this.edited(event.id, event.data.message);
      case 'message.delete':
        return this.deleted(event.data.message);
      case 'interaction.create':
        return this.invoked(event.id, event.data.interaction);
      default:
        return undefined;
    }
  }

  private async created(eventId: string, m: BoardMessage): Promise<Job | undefined> {
    const { root, repliesToBot } = await this.deps.index.record(m);
    // An app receives its own messages too; Chat would skip them (isMe), so they stop here.
    if (m.author === this.deps.botUserId) return undefined;
    const threadId = encodeThreadId({ boardId: m.board_id, rootId: root });
    return {
      threadId,
      run: async () => {
        const message = await this.toMessage(m, threadId, repliesToBot);
        const scope = { eventId, next: 0, message: { threadId, id: m.id } };
        await runInEvent(scope, () => this.process(threadId, message));
      },
    };
  }

  private async edited(eventId: string, m: BoardMessage): Promise<Job | undefined> {
    if (m.author === this.deps.botUserId) return undefined;
    const { root, repliesToBot } = await this.deps.index.threadOf(m);
    const threadId = encodeThreadId({ boardId: m.board_id, rootId: root });
    const { chat, adapter } = this.deps;
    return {
      threadId,
      run: async () => {
        const message = await this.toMessage(m, threadId, repliesToBot);
        const scope = { eventId, next: 0, message: { threadId, id: m.id } };
        await runInEvent(scope, () => chat.processMessageUpdated({ adapter, threadId, message }));
      },
    };
  }

  private async deleted(m: BoardMessage): Promise<Job | undefined> {
    if (m.author === this.deps.botUserId) return undefined;
    const { root } = await this.deps.index.threadOf(m);
    const threadId = encodeThreadId({ boardId: m.board_id, rootId: root });
    const { chat, adapter } = this.deps;
    const deletedAt = m.deleted_at === null ? {} : { deletedAt: new Date(m.deleted_at) };
    return {
      threadId,
      run: () =>
        chat.processMessageDeleted({
          adapter,
          threadId,
          channelId: channelIdOf(threadId),
          messageId: m.id,
          raw: m,
          ...deletedAt,
        }),
    };
  }

  private invoked(eventId: string, interaction: Interaction): Job {
    const { chat, adapter, people } = this.deps;
    people.remember(interaction.user);
    const channelId = encodeThreadId({ boardId: interaction.board_id });
    const scope = { eventId, next: 0, interaction: { token: interaction.token, channelId, answers: 0 } };
    const event = {
      ...slashCommandOf(interaction),
      adapter,
      channelId,
      user: people.author(interaction.user),
      raw: interaction,
      // Chat asks an adapter for a modal only with a trigger: this one refuses it (modals: not supported).
      triggerId: interaction.id,
    };
    return {
      threadId: channelId,
      run: async () => runInEvent(scope, () => chat.processSlashCommand(event, undefined)),
    };
  }

  private async toMessage(m: BoardMessage, threadId: string, repliesToBot: boolean) {
    const { people, format, userName } = this.deps;
    const message = toChatMessage(m, { threadId, author: await people.authorOf(m) }, format);
    message.isMention = repliesToBot || mentionsName(message.text, userName);
    return message;
  }

  // Chat's own dedupe marks a message before its handler runs, so a process that dies mid-handler
  // would never see it again: the adapter dedupes by its resume point instead.
  private async process(threadId: string, message: Awaited<ReturnType<Intake['toMessage']>>): Promise<void> {
    const { chat, adapter, logger } = this.deps;
    try {
      await chat.processMessage(adapter, threadId, message, { deduplicate: false });
    } catch (error) {
      if (!(error instanceof LockError)) throw error;
      // Chat's `drop` strategy: a message for a thread whose handler still runs is dropped.
      logger.info({ threadId, messageId: message.id }, 'dropped by Chat (its thread was busy: concurrency "drop")');
    }
  }
}
